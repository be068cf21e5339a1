import Bitstream
import MediaCore

/// The receiving end of a whole RTP session — one H.264/H.265 video track and one AAC track, as an SDP file or an
/// RTSP server's DESCRIBE answer describes them — in one value. Each datagram is parsed once (RFC 3550 §5.1) and
/// that one ``RTPPacket`` feeds the track's reception statistics (RFC 3550 §6.4.1, §A.3 loss, §A.8 jitter), its
/// jitter buffer and its depacketizer (``RTPVideoReceiver``: RFC 6184 §5.6–§5.8, RFC 7798 §4.4; ``RTPAudioReceiver``:
/// RFC 3640 §3.2). Sender reports (RFC 3550 §6.4.1) put both tracks on one clock (``StreamSynchronizer``), so the
/// access units come out with presentation times a player or a muxer can use as they are.
///
/// Until sender reports of both tracks have arrived, whole frames are held (at most
/// ``Configuration/synchronizationHold`` of arrival time and ``Configuration/maximumHeldFrames`` frames); if none come
/// in that time, each track's times count from its own first frame (``Timing/firstPackets``). Frames after a video
/// loss are withheld until the next key frame; every frame not handed on is reported.
///
/// ```swift
/// var receiver = try RTPSessionReceiver(description: sdp)
/// receiver.receive(datagram, track: 0, arrival: .now - start) { event in
///     if case let .video(unit, pts) = event { decode(unit.nalUnits, pts) }
/// }
/// print(receiver.statistics.video?.packetsLost ?? 0)
/// ```
public struct RTPSessionReceiver: Sendable {
    /// How presentation times are placed.
    public enum Timing: Sendable, Hashable {
        /// On the sender's wallclock, from both tracks' sender reports (RFC 3550 §6.4.1), counted from the earlier
        /// track's first packet: audio and video keep the offset the sender gave them.
        case senderReports
        /// Each track counted from its own first frame: one track only, or no sender report in time.
        case firstPackets
    }

    /// Limits and windows.
    public struct Configuration: Sendable, Hashable {
        /// How many packets may overtake a missing one before it is given up (per track).
        public var reorderWindow = 64
        /// How long (in arrival time) frames are held waiting for the sender reports of both tracks.
        public var synchronizationHold: Duration = .seconds(3)
        /// The most frames held while waiting for sender reports.
        public var maximumHeldFrames = 1024
        /// The largest video access unit in bytes.
        public var maximumAccessUnitSize = 8 << 20
        /// The most NAL units in one video access unit.
        public var maximumNALUnitCount = 1024

        /// The defaults.
        public init() {}
    }

    private enum Held: Sendable {
        case video(RTPAccessUnit)
        case audio(RTPAudioFrame)
    }

    /// The most sender reports kept for SSRCs not yet seen in RTP (an SR may come before the first packet).
    private static let maximumPendingReports = 8

    /// The video track, if the session has one.
    public let video: RTPSessionTrack?
    /// The audio track, if the session has one.
    public let audio: RTPSessionTrack?
    /// The configuration.
    public let configuration: Configuration

    private var videoReceiver: RTPVideoReceiver?
    private var audioReceiver: RTPAudioReceiver?
    private var videoReception: ReceptionStatistics?
    private var audioReception: ReceptionStatistics?
    private var videoFirstTimestamp: UInt32?
    private var audioFirstTimestamp: UInt32?
    private var videoMalformed = 0
    private var audioMalformed = 0
    private var videoClock = RTPTimestampUnwrapper()
    private var audioClock = RTPTimestampUnwrapper()
    private var synchronizer = StreamSynchronizer()
    private var pendingReports: [UInt32: RTCPSenderReport] = [:]
    private var held: [Held] = []
    private var heldSince: Duration?
    private var timing: Timing?
    private var baseNanoseconds: Int64 = 0
    private var datagramsParsed = 0
    private var controlMalformed = 0

    /// A receiver for the first H.264/H.265 and the first AAC media section of a session description.
    /// - Parameters:
    ///   - description: the SDP (RFC 8866).
    ///   - configuration: limits and windows.
    /// - Throws: ``RTPSessionError`` when no section can be received or a chosen one cannot be read.
    public init(description: SessionDescription, configuration: Configuration = Configuration()) throws(RTPSessionError) {
        var video: RTPSessionTrack?, audio: RTPSessionTrack?
        var encodings: [String] = []
        for (index, media) in description.media.enumerated() {
            guard let type = media.payloadTypes.first, let format = try? media.payloadFormat(for: type) else { continue }
            encodings.append(format.rtpMap.encodingName)
            switch format.parameters {
            case .h264 where video == nil, .h265 where video == nil:
                let codec: RTPVideoReceiver.Codec
                if case let .h265(parameters) = format.parameters {
                    guard !parameters.carriesDecodingOrderNumbers else { throw .unsupportedDecodingOrderNumbers(index: index) }
                    codec = .h265
                } else {
                    codec = .h264
                }
                // Parameter sets may travel in band only (RFC 6184 §8.2.1): the format is then learned later.
                let described = try? media.videoFormat(payloadType: type)
                video = RTPSessionTrack(index: index, payloadType: type, clockRate: format.clockRate,
                                        media: .video(codec, described), frameRate: media.frameRate)
            case let .mpeg4Generic(parameters) where audio == nil:
                do throws(SDPError) {
                    let audioFormat = try media.audioFormat(payloadType: type)
                    audio = RTPSessionTrack(index: index, payloadType: type, clockRate: format.clockRate,
                                            media: .audio(audioFormat, parameters))
                } catch {
                    throw .invalidTrack(index: index, reason: error)
                }
            default: continue
            }
        }
        try self.init(video: video, audio: audio, configuration: configuration, encodings: encodings)
    }

    /// A receiver for tracks described directly.
    /// - Parameters:
    ///   - video: the video track, if any.
    ///   - audio: the audio track, if any.
    ///   - configuration: limits and windows.
    /// - Throws: ``RTPSessionError/noSupportedTrack(encodings:)`` without any track, ``RTPSessionError/invalidTrack(index:reason:)``
    ///   for AU-header sizes out of range.
    public init(video: RTPSessionTrack?, audio: RTPSessionTrack?, configuration: Configuration = Configuration()) throws(RTPSessionError) {
        try self.init(video: video, audio: audio, configuration: configuration, encodings: [])
    }

    private init(video: RTPSessionTrack?, audio: RTPSessionTrack?, configuration: Configuration, encodings: [String]) throws(RTPSessionError) {
        guard video != nil || audio != nil else { throw .noSupportedTrack(encodings: encodings) }
        self.configuration = configuration
        if let video, case let .video(codec, _) = video.media {
            self.video = video
            videoReceiver = RTPVideoReceiver(codec: codec, reorderWindow: configuration.reorderWindow,
                                             maximumAccessUnitSize: configuration.maximumAccessUnitSize,
                                             maximumNALUnitCount: configuration.maximumNALUnitCount)
        } else {
            self.video = nil
        }
        if let audio, case let .audio(format, parameters) = audio.media {
            self.audio = audio
            do {
                audioReceiver = try RTPAudioReceiver(parameters: parameters, samplesPerFrame: format.samplesPerFrame,
                                                     reorderWindow: configuration.reorderWindow)
            } catch {
                throw .invalidTrack(index: audio.index, reason: .invalidParameter(name: "sizelength", value: "\(parameters.sizeLength)",
                                                                                  reason: error.description))
            }
        } else {
            self.audio = nil
        }
    }

    // MARK: - Packets

    /// Takes one RTP datagram of a track: parsed once (RFC 3550 §5.1), counted (§6.4.1, §A.3, §A.8), reordered and
    /// depacketized.
    /// - Parameters:
    ///   - datagram: the bytes as they arrived; what is handed on keeps views of them.
    ///   - track: the media section's index (RTSP's track number, or the SDP port's section).
    ///   - arrival: when it arrived, on any monotonic clock (for jitter and the synchronization hold).
    ///   - emit: receives every frame completed, lost or withheld — possibly frames held from earlier datagrams.
    public mutating func receive(_ datagram: ByteView, track: Int, arrival: Duration, _ emit: (RTPSessionEvent) -> Void) {
        let isVideo = track == video?.index, isAudio = track == audio?.index
        guard isVideo || isAudio else { return }
        let packet: RTPPacket
        do {
            packet = try RTPPacket(parsing: datagram)
        } catch {
            if isVideo { videoMalformed += 1 } else { audioMalformed += 1 }
            return
        }
        datagramsParsed += 1
        if isVideo, let video {
            guard let isFirst = Self.count(packet, of: video, reception: &videoReception, firstTimestamp: &videoFirstTimestamp,
                                           malformed: &videoMalformed, arrival: arrival) else { return }
            if isFirst { addStream(ssrc: packet.ssrc, clockRate: video.clockRate) }
            var events: [RTPFrameEvent<RTPAccessUnit>] = []
            videoReceiver?.receive(packet) { events.append($0) }
            for event in events { take(event, arrival: arrival, emit) }
        } else if let audio {
            guard let isFirst = Self.count(packet, of: audio, reception: &audioReception, firstTimestamp: &audioFirstTimestamp,
                                           malformed: &audioMalformed, arrival: arrival) else { return }
            if isFirst { addStream(ssrc: packet.ssrc, clockRate: audio.clockRate) }
            var events: [RTPFrameEvent<RTPAudioFrame>] = []
            audioReceiver?.receive(packet) { events.append($0) }
            for event in events { take(event, arrival: arrival, emit) }
        }
        settle(arrival: arrival, emit)
    }

    /// Counts a parsed packet in its track's reception statistics (RFC 3550 §6.4.1, §A.3, §A.8); the track's first
    /// packet starts them and fixes the track's first timestamp.
    /// - Parameters:
    ///   - packet: the packet.
    ///   - track: its track.
    ///   - reception: the track's reception statistics.
    ///   - firstTimestamp: the track's first RTP timestamp.
    ///   - malformed: the track's count of malformed packets.
    ///   - arrival: when the packet arrived.
    /// - Returns: `nil` for a payload type the track does not have (counted as malformed); else whether the packet is
    ///   the track's first (its SSRC is new to the session).
    private static func count(_ packet: RTPPacket, of track: RTPSessionTrack, reception: inout ReceptionStatistics?,
                              firstTimestamp: inout UInt32?, malformed: inout Int, arrival: Duration) -> Bool? {
        guard packet.payloadType == track.payloadType else {
            malformed += 1
            return nil
        }
        let isFirst = reception == nil
        if isFirst {
            reception = ReceptionStatistics(ssrc: packet.ssrc, clockRate: track.clockRate)
            firstTimestamp = packet.timestamp
        }
        _ = reception?.record(sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, arrival: arrival)
        return isFirst
    }

    /// Takes one RTCP datagram of a track (RFC 3550 §6.1 compound packet): its sender reports (§6.4.1) set the
    /// track's clock on the common one and the LSR/DLSR of the next receiver report.
    /// - Parameters:
    ///   - datagram: the bytes.
    ///   - track: the media section's index.
    ///   - arrival: when it arrived.
    ///   - emit: receives the frames the reports release, if they were held for them.
    public mutating func receiveControl(_ datagram: ByteView, track: Int, arrival: Duration, _ emit: (RTPSessionEvent) -> Void) {
        let compound: RTCPCompoundPacket
        do {
            compound = try RTCPCompoundPacket(parsing: datagram)
        } catch {
            controlMalformed += 1
            return
        }
        for report in compound.senderReports {
            if videoReception?.ssrc == report.ssrc {
                videoReception?.recordSenderReport(report, arrival: arrival)
                synchronizer.record(report)
            } else if audioReception?.ssrc == report.ssrc {
                audioReception?.recordSenderReport(report, arrival: arrival)
                synchronizer.record(report)
            } else if pendingReports[report.ssrc] != nil || pendingReports.count < Self.maximumPendingReports {
                pendingReports[report.ssrc] = report
            }
        }
        settle(arrival: arrival, emit)
    }

    /// Ends the session: the buffers release what they hold and every frame still held is handed on.
    /// - Parameter emit: receives the frames and reports.
    public mutating func finish(_ emit: (RTPSessionEvent) -> Void) {
        var videoEvents: [RTPFrameEvent<RTPAccessUnit>] = []
        videoReceiver?.finish { videoEvents.append($0) }
        let last = heldSince ?? .zero
        for event in videoEvents { take(event, arrival: last, emit) }
        var audioEvents: [RTPFrameEvent<RTPAudioFrame>] = []
        audioReceiver?.finish { audioEvents.append($0) }
        for event in audioEvents { take(event, arrival: last, emit) }
        if timing == nil { decideTiming(force: true) }
        release(emit)
    }

    // MARK: - Statistics and reports

    /// What the session saw so far, per track.
    public var statistics: RTPSessionStatistics {
        var result = RTPSessionStatistics()
        if let videoReceiver {
            let counts = videoReceiver.statistics
            var track = trackStatistics(counts.packets, reception: videoReception, malformed: videoMalformed)
            track.payloadsMalformed = counts.malformedPayloads
            (track.framesGood, track.framesLost, track.framesWithheld) = (counts.framesGood, counts.framesLost, counts.framesWithheld)
            result.video = track
        }
        if let audioReceiver {
            let counts = audioReceiver.statistics
            var track = trackStatistics(counts.packets, reception: audioReception, malformed: audioMalformed)
            track.payloadsMalformed = counts.malformedPayloads
            (track.framesGood, track.framesLost) = (counts.framesGood, counts.framesLost)
            result.audio = track
        }
        result.audioVideoStartOffset = audioVideoStartOffset
        result.timing = timing
        result.datagramsParsed = datagramsParsed
        result.controlPacketsMalformed = controlMalformed
        return result
    }

    private func trackStatistics(_ packets: RTPJitterBuffer.Statistics, reception: ReceptionStatistics?, malformed: Int) -> RTPTrackStatistics {
        var track = RTPTrackStatistics()
        track.ssrc = reception?.ssrc
        track.packetsReceived = packets.received
        track.packetsLost = packets.lost
        track.packetsReordered = packets.reordered
        track.packetsDuplicated = packets.duplicates
        track.packetsLate = packets.late
        track.packetsMalformed = malformed
        track.jitterSeconds = reception?.jitterSeconds ?? 0
        return track
    }

    /// The first audio packet's time minus the first video packet's on the sender reports' common clock, in seconds.
    private var audioVideoStartOffset: Double? {
        guard let videoSSRC = videoReception?.ssrc, let audioSSRC = audioReception?.ssrc,
              let videoFirstTimestamp, let audioFirstTimestamp, let reference = synchronizer.reference,
              let videoTime = synchronizer.clock(of: videoSSRC)?.nanoseconds(of: videoFirstTimestamp, since: reference),
              let audioTime = synchronizer.clock(of: audioSSRC)?.nanoseconds(of: audioFirstTimestamp, since: reference)
        else { return nil }
        return Double(audioTime - videoTime) / 1e9
    }

    /// The receiver reports to send now (RFC 3550 §6.4.2): per track that has received packets, a compound packet
    /// of an RR with its report block (fraction lost, cumulative loss, extended highest sequence number, jitter,
    /// LSR/DLSR) and an SDES CNAME (§6.5.1).
    /// - Parameters:
    ///   - now: the time on the arrival clock.
    ///   - ssrc: this receiver's own SSRC.
    ///   - canonicalName: this receiver's CNAME.
    /// - Returns: (track index, compound packet bytes) pairs.
    public mutating func receiverReports(at now: Duration, ssrc: UInt32, canonicalName: String = "streamkit") -> [(track: Int, bytes: [UInt8])] {
        var result: [(track: Int, bytes: [UInt8])] = []
        let videoBlock = videoReception?.makeReportBlock(at: now), audioBlock = audioReception?.makeReportBlock(at: now)
        for (track, block) in [(video?.index, videoBlock), (audio?.index, audioBlock)] {
            guard let track, let block else { continue }
            let compound = RTCPCompoundPacket([
                .receiverReport(RTCPReceiverReport(ssrc: ssrc, reportBlocks: [block])),
                .sourceDescription(RTCPSourceDescription(ssrc: ssrc, canonicalName: canonicalName)),
            ])
            if let bytes = try? compound.serialized() { result.append((track, bytes)) }
        }
        return result
    }

    // MARK: - Timing

    private mutating func addStream(ssrc: UInt32, clockRate: Int) {
        synchronizer.addStream(ssrc: ssrc, clockRate: clockRate)
        if let report = pendingReports.removeValue(forKey: ssrc) {
            synchronizer.record(report)
            if videoReception?.ssrc == ssrc { videoReception?.recordSenderReport(report, arrival: heldSince ?? .zero) }
            if audioReception?.ssrc == ssrc { audioReception?.recordSenderReport(report, arrival: heldSince ?? .zero) }
        }
    }

    private mutating func take(_ event: RTPFrameEvent<RTPAccessUnit>, arrival: Duration, _ emit: (RTPSessionEvent) -> Void) {
        switch event {
        case let .frame(unit): hold(.video(unit), arrival: arrival, emit)
        case let .lost(loss): emit(.videoLost(loss))
        case let .withheld(loss): emit(.videoWithheld(loss))
        }
    }

    private mutating func take(_ event: RTPFrameEvent<RTPAudioFrame>, arrival: Duration, _ emit: (RTPSessionEvent) -> Void) {
        switch event {
        case let .frame(frame): hold(.audio(frame), arrival: arrival, emit)
        case let .lost(loss), let .withheld(loss): emit(.audioLost(loss))
        }
    }

    private mutating func hold(_ frame: Held, arrival: Duration, _ emit: (RTPSessionEvent) -> Void) {
        if timing != nil {
            send(frame, emit)
            return
        }
        if held.isEmpty { heldSince = arrival }
        held.append(frame)
    }

    /// Decides the timing once it can be decided, then hands on what was held.
    private mutating func settle(arrival: Duration, _ emit: (RTPSessionEvent) -> Void) {
        guard timing == nil, !held.isEmpty else { return }
        let waited = heldSince.map { arrival - $0 } ?? .zero
        decideTiming(force: waited >= configuration.synchronizationHold || held.count >= configuration.maximumHeldFrames)
        release(emit)
    }

    private mutating func decideTiming(force: Bool) {
        guard video != nil, audio != nil else {
            timing = .firstPackets
            return
        }
        if let videoSSRC = videoReception?.ssrc, let audioSSRC = audioReception?.ssrc,
           let videoFirstTimestamp, let audioFirstTimestamp, let reference = synchronizer.reference,
           let videoTime = synchronizer.clock(of: videoSSRC)?.nanoseconds(of: videoFirstTimestamp, since: reference),
           let audioTime = synchronizer.clock(of: audioSSRC)?.nanoseconds(of: audioFirstTimestamp, since: reference) {
            baseNanoseconds = min(videoTime, audioTime)
            timing = .senderReports
        } else if force {
            timing = .firstPackets
        }
    }

    private mutating func release(_ emit: (RTPSessionEvent) -> Void) {
        guard timing != nil else { return }
        let frames = held
        held.removeAll()
        heldSince = nil
        for frame in frames { send(frame, emit) }
    }

    private mutating func send(_ frame: Held, _ emit: (RTPSessionEvent) -> Void) {
        switch frame {
        case let .video(unit):
            let offset = videoClock.unwrap(unit.timestamp)
            emit(.video(unit, pts: presentationTime(unit.timestamp, offset: offset, ssrc: videoReception?.ssrc,
                                                    clockRate: video?.clockRate ?? 90_000, timescale: 90_000)))
        case let .audio(audioFrame):
            let offset = audioClock.unwrap(audioFrame.timestamp)
            let rate = audio?.clockRate ?? 48_000
            emit(.audio(audioFrame, pts: presentationTime(audioFrame.timestamp, offset: offset, ssrc: audioReception?.ssrc,
                                                          clockRate: rate, timescale: Int32(clamping: rate))))
        }
    }

    /// A timestamp's presentation time: on the sender reports' clock from the session's start, or its distance from
    /// the track's first frame.
    private func presentationTime(_ timestamp: UInt32, offset: Int64, ssrc: UInt32?, clockRate: Int, timescale: Int32) -> MediaTime {
        let scale = max(timescale, 1)
        if timing == .senderReports, let ssrc, let reference = synchronizer.reference,
           let nanoseconds = synchronizer.clock(of: ssrc)?.nanoseconds(of: timestamp, since: reference) {
            return MediaTime(value: nanoseconds - baseNanoseconds, timescale: 1_000_000_000).converted(to: scale)
        }
        return MediaTime(value: offset, timescale: Int32(clamping: max(clockRate, 1))).converted(to: scale)
    }
}

import Bitstream
import MediaCore
import RTP
import Transport

/// What `receive` does with each packet: the video track through ``RTPVideoReceiver`` (jitter buffer,
/// depacketizer, key-frame gate), the AAC track through a jitter buffer and ``AACDepacketizer``, RFC 3550
/// reception statistics (loss, reordering, duplicates, jitter) per track, and the sender reports into a
/// ``StreamSynchronizer`` so audio and video land on one clock.
struct ReceivingSession {
    private struct AudioTrack {
        var jitterBuffer = RTPJitterBuffer()
        var depacketizer: AACDepacketizer
        var good = 0
        var lost = 0
    }

    /// The video's codec, if the session has video.
    let videoCodec: CodecType?
    /// The audio's format, if the session has AAC.
    let audioFormat: AudioFormatDescription?
    /// The video's frame rate from the SDP, if given.
    let frameRate: Double?
    private let videoTrack: Int?
    private let audioTrack: Int?
    private let wantsAudio: Bool
    private var video: RTPVideoReceiver?
    private var audio: AudioTrack?
    private var statistics: [Int: ReceptionStatistics] = [:]
    private var synchronizer = StreamSynchronizer()
    private var firstTimestamps: [Int: (ssrc: UInt32, timestamp: UInt32)] = [:]
    /// (RTP timestamp, arrival in seconds) of packets per track, for the A/V skew (a bounded sample).
    private var arrivals: [Int: [(timestamp: UInt32, seconds: Double)]] = [:]
    private static let arrivalSampleLimit = 20_000
    private var clockRates: [Int: Int] = [:]
    private var lossLines: [String] = []
    private var malformedRTCP = 0

    /// A session for a description.
    /// - Parameters:
    ///   - description: the SDP.
    ///   - wantsAudio: whether the output is the audio (else the video).
    /// - Throws: ``SDPError`` when the wanted medium cannot be read.
    init(description: SessionDescription, wantsAudio: Bool) throws {
        self.wantsAudio = wantsAudio
        var videoTrack: Int?, audioTrack: Int?
        var codec: CodecType?, audioFormat: AudioFormatDescription?, frameRate: Double?
        for (index, media) in description.media.enumerated() {
            guard let type = media.payloadTypes.first, let format = try? media.payloadFormat(for: type) else { continue }
            switch format.parameters {
            case .h264 where videoTrack == nil:
                videoTrack = index
                codec = .h264
                frameRate = media.frameRate
                clockRates[index] = format.clockRate
            case .h265 where videoTrack == nil:
                videoTrack = index
                codec = .hevc
                frameRate = media.frameRate
                clockRates[index] = format.clockRate
            case let .mpeg4Generic(parameters) where audioTrack == nil:
                audioTrack = index
                audioFormat = try media.audioFormat(payloadType: type)
                clockRates[index] = format.clockRate
                audio = AudioTrack(depacketizer: try AACDepacketizer(sizeLength: parameters.sizeLength, indexLength: parameters.indexLength,
                                                                     indexDeltaLength: parameters.indexDeltaLength))
            default: continue
            }
        }
        self.videoTrack = videoTrack
        self.audioTrack = audioTrack
        videoCodec = codec
        self.audioFormat = audioFormat
        self.frameRate = frameRate
        if let codec { video = RTPVideoReceiver(codec: codec == .hevc ? .h265 : .h264) }
    }

    /// The streams found, for the first status line.
    var summary: String {
        var parts: [String] = []
        if let videoCodec { parts.append("\(videoCodec.rawValue) video") }
        if let audioFormat { parts.append("AAC \(audioFormat.sampleRate) Hz \(audioFormat.channelCount) ch") }
        return parts.isEmpty ? "no stream we can depacketize" : parts.joined(separator: " + ")
    }

    /// Good frames of the written medium.
    var goodFrames: Int { wantsAudio ? (audio?.good ?? 0) : (video?.statistics.framesGood ?? 0) }

    /// Takes one packet.
    /// - Parameters:
    ///   - packet: the packet.
    ///   - arrival: its arrival time since the start.
    ///   - writer: where good frames go.
    ///   - frameLimit: stop after this many good frames of the written medium.
    /// - Returns: whether the limit was reached.
    /// - Throws: file and decoder errors.
    mutating func take(_ packet: RTSPMediaPacket, arrival: Duration, writer: ReceivedMediaWriter, frameLimit: Int?) async throws -> Bool {
        if packet.isControl {
            if let compound = try? RTCPCompoundPacket(parsing: packet.bytes) {
                synchronizer.record(compound)
                for case let .senderReport(report) in compound.packets {
                    statistics[packet.track]?.recordSenderReport(report, arrival: arrival)
                }
            } else {
                malformedRTCP += 1
            }
            return false
        }
        if let header = try? RTPPacket(parsing: packet.bytes) {
            if statistics[packet.track] == nil {
                statistics[packet.track] = ReceptionStatistics(ssrc: header.ssrc, clockRate: clockRates[packet.track] ?? 90_000)
                _ = synchronizer.addStream(ssrc: header.ssrc, clockRate: clockRates[packet.track] ?? 90_000)
                firstTimestamps[packet.track] = (header.ssrc, header.timestamp)
            }
            _ = statistics[packet.track]?.record(sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, arrival: arrival)
            if arrivals[packet.track, default: []].count < Self.arrivalSampleLimit {
                let seconds = Double(arrival.components.seconds) + Double(arrival.components.attoseconds) / 1e18
                arrivals[packet.track, default: []].append((header.timestamp, seconds))
            }
        }
        if packet.track == videoTrack, var receiver = video {
            var units: [RTPAccessUnit] = []
            try? receiver.receive(packet.bytes) { event in handle(event, into: &units) }
            video = receiver
            if !wantsAudio { for unit in units { try await writer.write(unit) } }
            return !wantsAudio && frameLimit.map { receiver.statistics.framesGood >= $0 } ?? false
        }
        if packet.track == audioTrack, var track = audio, let parsed = try? RTPPacket(parsing: packet.bytes) {
            var frames: [RTPAudioFrame] = []
            _ = track.jitterBuffer.insert(parsed)
            while let output = track.jitterBuffer.next() { depacketize(output, in: &track, into: &frames) }
            audio = track
            if wantsAudio { for frame in frames { try writer.write(frame) } }
            return wantsAudio && frameLimit.map { track.good >= $0 } ?? false
        }
        return false
    }

    private mutating func depacketize(_ output: RTPJitterBuffer.Output, in track: inout AudioTrack, into frames: inout [RTPAudioFrame]) {
        guard case let .packet(packet) = output else { return }
        var lines: [String] = []
        do {
            _ = try track.depacketizer.depacketize(packet) { event in
                switch event {
                case let .frame(frame):
                    frames.append(frame)
                    track.good += 1
                case let .lost(loss), let .withheld(loss):
                    track.lost += 1
                    lines.append("audio: \(loss)")
                }
            }
        } catch {
            track.lost += 1
            lines.append("audio: packet \(packet.sequenceNumber): \(error)")
        }
        lossLines += lines
    }

    private mutating func handle(_ event: RTPFrameEvent<RTPAccessUnit>, into units: inout [RTPAccessUnit]) {
        switch event {
        case let .frame(unit): units.append(unit)
        case let .lost(loss): lossLines.append("video lost: \(loss)")
        case let .withheld(loss): lossLines.append("video withheld: \(loss)")
        }
    }

    /// The receiver reports to send now (RFC 3550 §6.4.2): per track, an RR with its reception report block
    /// (loss fraction, cumulative loss, highest sequence number, jitter, LSR/DLSR) and an SDES CNAME.
    /// - Parameters:
    ///   - now: the time since the start.
    ///   - ssrc: this receiver's SSRC.
    /// - Returns: (track, compound packet) pairs.
    mutating func receiverReports(at now: Duration, ssrc: UInt32) -> [(track: Int, bytes: [UInt8])] {
        var result: [(Int, [UInt8])] = []
        for track in statistics.keys.sorted() {
            guard let block = statistics[track]?.makeReportBlock(at: now) else { continue }
            let compound = RTCPCompoundPacket([
                .receiverReport(RTCPReceiverReport(ssrc: ssrc, reportBlocks: [block])),
                .sourceDescription(RTCPSourceDescription(ssrc: ssrc, canonicalName: "streamkit-receive")),
            ])
            if let bytes = try? compound.serialized() { result.append((track, bytes)) }
        }
        return result
    }

    /// Hands on what the buffers still hold.
    /// - Parameter writer: where good frames go.
    /// - Throws: file and decoder errors.
    mutating func finish(writer: ReceivedMediaWriter) async throws {
        if var receiver = video {
            var units: [RTPAccessUnit] = []
            receiver.finish { event in handle(event, into: &units) }
            video = receiver
            if !wantsAudio { for unit in units { try await writer.write(unit) } }
        }
        if var track = audio {
            var frames: [RTPAudioFrame] = []
            for output in track.jitterBuffer.drain() { depacketize(output, in: &track, into: &frames) }
            audio = track
            if wantsAudio { for frame in frames { try writer.write(frame) } }
        }
    }

    /// The closing report: every frame lost or withheld, then the counts, jitter and the A/V offset.
    /// - Parameter pictures: the pictures decoded into a Y4M output, if any.
    /// - Returns: the lines.
    func report(pictures: Int?) -> [String] {
        var lines = lossLines
        if let video {
            let counts = video.statistics
            lines.append("video frames: \(counts.framesGood) good, \(counts.framesLost) lost, \(counts.framesWithheld) withheld"
                + (pictures.map { " (\($0) pictures decoded)" } ?? ""))
            lines.append(packetLine("video", track: videoTrack, jitterBuffer: counts.packets, malformed: counts.malformedPackets))
        }
        if let audio {
            lines.append("audio frames: \(audio.good) good, \(audio.lost) lost")
            lines.append(packetLine("audio", track: audioTrack, jitterBuffer: audio.jitterBuffer.statistics, malformed: 0))
        }
        if let offset = audioVideoStartOffset {
            lines.append("a/v start: the first audio packet is \(String(format: "%.1f", offset * 1000)) ms after the first video packet "
                + "on the sender-report clock")
        }
        if let skew = audioVideoSkew {
            lines.append("a/v sync: audio − video skew \(String(format: "%.1f", skew * 1000)) ms "
                + "(sender-report clock minus arrival, median per stream)")
        } else if videoTrack != nil, audioTrack != nil {
            lines.append("a/v sync: unknown (no sender report of both streams)")
        }
        return lines
    }

    private func packetLine(_ name: String, track: Int?, jitterBuffer: RTPJitterBuffer.Statistics, malformed: Int) -> String {
        let reception = track.flatMap { statistics[$0] }
        let jitter = reception.map { String(format: "%.2f ms", $0.jitterSeconds * 1000) } ?? "n/a"
        return "\(name) packets: \(jitterBuffer.received) received, \(jitterBuffer.lost) lost, \(jitterBuffer.reordered) reordered, "
            + "\(jitterBuffer.duplicates) duplicated, \(jitterBuffer.late) late, \(malformed) malformed; jitter \(jitter)"
    }

    /// The first audio packet's time minus the first video packet's, on the common clock the sender reports
    /// set (zero for a sender whose streams both start at media time zero, when received from the start).
    var audioVideoStartOffset: Double? {
        guard let videoTrack, let audioTrack, let first = firstTimestamps[videoTrack], let second = firstTimestamps[audioTrack],
              case let .placed(videoTime) = synchronizer.presentationTime(ssrc: first.ssrc, rtpTimestamp: first.timestamp),
              case let .placed(audioTime) = synchronizer.presentationTime(ssrc: second.ssrc, rtpTimestamp: second.timestamp) else { return nil }
        return audioTime.seconds - videoTime.seconds
    }

    /// How far audio and video are apart once the sender reports put both on one clock: per stream, the
    /// median of (time on the common clock − arrival time) over its packets; the audio's minus the video's.
    /// A sender whose streams are in sync, on a network without queueing, gives about zero.
    var audioVideoSkew: Double? {
        guard let videoTrack, let audioTrack, let video = lead(of: videoTrack), let audio = lead(of: audioTrack) else { return nil }
        return audio - video
    }

    private func lead(of track: Int) -> Double? {
        guard let ssrc = firstTimestamps[track]?.ssrc, let samples = arrivals[track], !samples.isEmpty else { return nil }
        var leads: [Double] = []
        leads.reserveCapacity(samples.count)
        for sample in samples {
            guard case let .placed(time) = synchronizer.presentationTime(ssrc: ssrc, rtpTimestamp: sample.timestamp) else { return nil }
            leads.append(time.seconds - sample.seconds)
        }
        leads.sort()
        return leads[leads.count / 2]
    }
}

import Bitstream
import Foundation
import MediaCore
import RTP

/// Turns encoded frames into RTP packets and RTCP sender reports for the network commands (`stream`):
/// the video packetizer (RFC 6184 / RFC 7798), the AAC packetizer (RFC 3640), and once a second per stream a
/// compound RTCP packet (SR + SDES CNAME, RFC 3550 §6.4.1) whose NTP ↔ RTP pair maps every stream's media time
/// onto the same wall clock, so a receiver lines audio and video up. ``goodbye()`` ends both streams.
struct RTPMediaSender {
    /// Where packets go: the track (0 video, 1 audio — or 0 for the only one) and whether RTCP.
    typealias Output = (_ bytes: [UInt8], _ track: Int, _ isControl: Bool) async throws -> Void

    private enum VideoPacketizer {
        case h264(H264Packetizer)
        case h265(H265Packetizer)
    }

    private struct Counters {
        var packets: UInt32 = 0
        var octets: UInt32 = 0
        var lastReport: Double = -10
        var ssrc: UInt32 = 0
        var timestampOffset: UInt32 = 0
        var clockRate = 90_000
    }

    private var video: VideoPacketizer?
    private var audio: AACPacketizer?
    private var videoCounters = Counters()
    private var audioCounters = Counters()
    /// The wall-clock time of media time zero (what the sender reports' NTP times count from).
    private let wallClockStart: Date
    /// The video track's number, if video is sent.
    let videoTrack: Int?
    /// The audio track's number, if audio is sent.
    let audioTrack: Int?
    private let canonicalName = "streamkit@\(ProcessInfo.processInfo.hostName)"

    /// A sender.
    /// - Parameters:
    ///   - videoFormat: the video's format (from the first encoded frame), if any.
    ///   - audioFormat: the audio's format, if any.
    ///   - maximumPacketSize: the largest RTP packet.
    ///   - wallClockStart: the wall-clock time of media time zero.
    /// - Throws: ``RTPPacketizerError`` for a packet size too small.
    init(videoFormat: FormatDescription?, audioFormat: AudioFormatDescription?, maximumPacketSize: Int, wallClockStart: Date) throws {
        self.wallClockStart = wallClockStart
        if let videoFormat {
            switch videoFormat.codec {
            case .hevc:
                let packetizer = try H265Packetizer(parameterSets: videoFormat.parameterSets, maximumPacketSize: maximumPacketSize,
                                                    state: RTPSenderState(payloadType: 96))
                videoCounters.ssrc = packetizer.state.ssrc
                videoCounters.timestampOffset = packetizer.state.timestampOffset
                video = .h265(packetizer)
            default:
                let packetizer = try H264Packetizer(parameterSets: videoFormat.parameterSets, maximumPacketSize: maximumPacketSize,
                                                    state: RTPSenderState(payloadType: 96))
                videoCounters.ssrc = packetizer.state.ssrc
                videoCounters.timestampOffset = packetizer.state.timestampOffset
                video = .h264(packetizer)
            }
            videoTrack = 0
        } else {
            videoTrack = nil
        }
        if let audioFormat {
            let packetizer = try AACPacketizer(samplesPerFrame: audioFormat.samplesPerFrame, maximumPacketSize: maximumPacketSize,
                                               state: RTPSenderState(payloadType: 97))
            audioCounters.ssrc = packetizer.state.ssrc
            audioCounters.timestampOffset = packetizer.state.timestampOffset
            audioCounters.clockRate = audioFormat.sampleRate
            audio = packetizer
            audioTrack = videoFormat == nil ? 0 : 1
        } else {
            audioTrack = nil
        }
    }

    /// Sends one encoded item: its RTP packets, then a sender report when a second has passed.
    /// - Parameters:
    ///   - item: the frame.
    ///   - output: where the packets go.
    /// - Throws: a packetizer or output failure.
    mutating func send(_ item: FeedItem, to output: Output) async throws {
        var packets: [[UInt8]] = []
        let mediaSeconds: Double
        let track: Int
        switch item {
        case let .video(frame):
            guard let videoTrack else { return }
            track = videoTrack
            mediaSeconds = frame.pts.seconds
            switch video {
            case var .h264(packetizer)?:
                try packetizer.packetize(frame) { packets.append(Array($0)) }
                video = .h264(packetizer)
            case var .h265(packetizer)?:
                try packetizer.packetize(frame) { packets.append(Array($0)) }
                video = .h265(packetizer)
            case nil: return
            }
            count(packets, in: &videoCounters)
        case let .audio(frame):
            guard let audioTrack, var packetizer = audio else { return }
            track = audioTrack
            mediaSeconds = frame.pts.seconds
            try packetizer.packetize(frame) { packets.append(Array($0)) }
            audio = packetizer
            count(packets, in: &audioCounters)
        }
        for packet in packets { try await output(packet, track, false) }
        if track == videoTrack, mediaSeconds - videoCounters.lastReport >= 1 {
            videoCounters.lastReport = mediaSeconds
            try await output(try report(videoCounters, at: mediaSeconds), track, true)
        } else if track == audioTrack, track != videoTrack, mediaSeconds - audioCounters.lastReport >= 1 {
            audioCounters.lastReport = mediaSeconds
            try await output(try report(audioCounters, at: mediaSeconds), track, true)
        }
    }

    /// The RTCP BYE of every stream (RFC 3550 §6.6), with a last sender report before it.
    /// - Returns: (track, packet) pairs.
    func goodbye() throws -> [(track: Int, bytes: [UInt8])] {
        var result: [(Int, [UInt8])] = []
        for (track, counters) in [(videoTrack, videoCounters), (audioTrack, audioCounters)] {
            guard let track else { continue }
            let packet = RTCPCompoundPacket([
                .receiverReport(RTCPReceiverReport(ssrc: counters.ssrc)),
                .sourceDescription(RTCPSourceDescription(ssrc: counters.ssrc, canonicalName: canonicalName)),
                .goodbye(RTCPGoodbye(ssrcs: [counters.ssrc], reason: "end of stream")),
            ])
            result.append((track, try packet.serialized()))
        }
        return result
    }

    private func count(_ packets: [[UInt8]], in counters: inout Counters) {
        counters.packets &+= UInt32(truncatingIfNeeded: packets.count)
        for packet in packets { counters.octets &+= UInt32(truncatingIfNeeded: max(0, packet.count - RTPPacket.fixedHeaderSize)) }
    }

    /// SR + SDES for one stream at a media time: NTP = the wall clock of media time zero plus that time,
    /// RTP = the stream's offset plus that time in its clock (RFC 3550 §6.4.1).
    private func report(_ counters: Counters, at mediaSeconds: Double) throws -> [UInt8] {
        let wall = wallClockStart.timeIntervalSince1970 + mediaSeconds
        let whole = wall.rounded(.down)
        let ntp = NTPTimestamp(unixSeconds: UInt64(whole), nanoseconds: UInt32(min(999_999_999, (wall - whole) * 1e9)))
        let ticks = UInt32(truncatingIfNeeded: Int64((mediaSeconds * Double(counters.clockRate)).rounded()))
        let report = RTCPSenderReport(ssrc: counters.ssrc, ntpTimestamp: ntp, rtpTimestamp: counters.timestampOffset &+ ticks,
                                      packetCount: counters.packets, octetCount: counters.octets)
        return try RTCPCompoundPacket([
            .senderReport(report), .sourceDescription(RTCPSourceDescription(ssrc: counters.ssrc, canonicalName: canonicalName)),
        ]).serialized()
    }
}

import Foundation
import MediaCore
import RTP

/// The network commands' (`stream`, `serve`) use of ``RTPMediaStream``: one stream per track (0 video, 1 audio —
/// or 0 for the only one), every stream's media time zero on the same wall-clock instant so a receiver lines
/// audio and video up through the sender reports, and the packets handed to an output that knows the sockets.
struct RTPMediaSender {
    /// Where packets go: the track (0 video, 1 audio — or 0 for the only one) and whether RTCP.
    typealias Output = (_ bytes: [UInt8], _ track: Int, _ isControl: Bool) async throws -> Void

    private var video: RTPMediaStream?
    private var audio: RTPMediaStream?
    /// The video track's number, if video is sent.
    let videoTrack: Int?
    /// The audio track's number, if audio is sent.
    let audioTrack: Int?

    /// A sender.
    /// - Parameters:
    ///   - videoFormat: the video's format (from the first encoded frame), if any.
    ///   - audioFormat: the audio's format, if any.
    ///   - maximumPacketSize: the largest RTP packet.
    ///   - wallClockStart: the wall-clock time of media time zero.
    /// - Throws: ``RTPPacketizerError`` for a packet size too small.
    init(videoFormat: FormatDescription?, audioFormat: AudioFormatDescription?, maximumPacketSize: Int, wallClockStart: Date) throws {
        let wall = wallClockStart.timeIntervalSince1970
        let whole = wall.rounded(.down)
        let reference = NTPTimestamp(unixSeconds: UInt64(max(0, whole)), nanoseconds: UInt32(min(999_999_999, max(0, (wall - whole) * 1e9))))
        let canonicalName = "streamkit@\(ProcessInfo.processInfo.hostName)"
        video = try videoFormat.map {
            try RTPMediaStream(video: $0, maximumPacketSize: maximumPacketSize, referenceTime: reference, canonicalName: canonicalName)
        }
        audio = try audioFormat.map {
            try RTPMediaStream(audio: $0, maximumPacketSize: maximumPacketSize, referenceTime: reference, canonicalName: canonicalName)
        }
        videoTrack = videoFormat == nil ? nil : 0
        audioTrack = audioFormat == nil ? nil : (videoFormat == nil ? 0 : 1)
    }

    /// Sends one encoded item: its RTP packets, then a sender report when a second has passed.
    /// - Parameters:
    ///   - item: the frame.
    ///   - output: where the packets go.
    /// - Throws: a packetizer or output failure.
    mutating func send(_ item: FeedItem, to output: Output) async throws {
        var packets: [[UInt8]] = []
        let track: Int
        let report: [UInt8]?
        switch item {
        case let .video(frame):
            guard let videoTrack, var stream = video else { return }
            track = videoTrack
            try stream.send(frame) { packets.append(Array($0)) }
            report = try stream.reportIfDue(at: frame.pts)
            video = stream
        case let .audio(frame):
            guard let audioTrack, var stream = audio else { return }
            track = audioTrack
            try stream.send(frame) { packets.append(Array($0)) }
            report = try stream.reportIfDue(at: frame.pts)
            audio = stream
        }
        for packet in packets { try await output(packet, track, false) }
        if let report { try await output(report, track, true) }
    }

    /// The RTCP BYE of every stream (RFC 3550 §6.6), with a last sender report before it.
    /// - Returns: (track, packet) pairs.
    func goodbye() throws -> [(track: Int, bytes: [UInt8])] {
        var result: [(Int, [UInt8])] = []
        if let videoTrack, let video { result.append((videoTrack, try video.goodbyePacket())) }
        if let audioTrack, let audio { result.append((audioTrack, try audio.goodbyePacket())) }
        return result
    }
}

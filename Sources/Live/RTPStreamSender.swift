import Foundation
import MediaCore
import RTP
import Transport

/// The RTP side of a live stream: one ``RTPMediaStream`` per track (track 0 video, 1 audio — or 0 for the only
/// one), every track's media time zero at the same wall-clock instant so that a receiver lines audio and video up
/// through the sender reports (RFC 3550 §6.4.1), and each frame's packets followed by a sender report once a
/// second has passed.
///
/// ```swift
/// var sender = try RTPStreamSender(video: format, audio: nil, maximumPacketSize: 1472, wallClockStart: Date())
/// try sender.send(.video(frame, index: 0)) { packet, track, isControl in socket.send(packet) }
/// ```
public struct RTPStreamSender: Sendable {
    /// Receives each packet: its bytes (valid during the call), its track, and whether it is RTCP.
    public typealias Output = (_ bytes: UnsafeRawBufferPointer, _ track: Int, _ isControl: Bool) -> Void
    /// Receives each packet with its RTP timestamp: the bytes (valid during the call), the track, and the
    /// timestamp every RTP packet of the frame carries (RFC 3550 §5.1: the frame's presentation time in the
    /// track's clock plus the stream's random offset) — `nil` for an RTCP packet. What a server that lines clients
    /// up by timestamp (``RTSPLiveStream/publishRTP(_:track:timestamp:)``) needs, without reading the header back.
    public typealias TimedOutput = (_ bytes: UnsafeRawBufferPointer, _ track: Int, _ rtpTimestamp: UInt32?) -> Void

    private var video: RTPMediaStream?
    private var audio: RTPMediaStream?
    /// The video track's number, if video is sent.
    public let videoTrack: Int?
    /// The audio track's number, if audio is sent.
    public let audioTrack: Int?

    /// Creates a sender.
    /// - Parameters:
    ///   - video: the video's format (from the first encoded picture), if any.
    ///   - audio: the audio's format, if any.
    ///   - maximumPacketSize: the largest RTP packet (the path MTU less the IP and UDP headers).
    ///   - wallClockStart: the wall-clock time of media time zero.
    /// - Throws: ``RTPPacketizerError`` for a packet size too small.
    public init(video: FormatDescription?, audio: AudioFormatDescription?, maximumPacketSize: Int, wallClockStart: Date) throws(RTPPacketizerError) {
        let wall = wallClockStart.timeIntervalSince1970
        let whole = wall.rounded(.down)
        let reference = NTPTimestamp(unixSeconds: UInt64(max(0, whole)), nanoseconds: UInt32(min(999_999_999, max(0, (wall - whole) * 1e9))))
        let canonicalName = "streamkit@\(ProcessInfo.processInfo.hostName)"
        self.video = try video.map { (format) throws(RTPPacketizerError) in
            try RTPMediaStream(video: format, maximumPacketSize: maximumPacketSize, referenceTime: reference, canonicalName: canonicalName)
        }
        self.audio = try audio.map { (format) throws(RTPPacketizerError) in
            try RTPMediaStream(audio: format, maximumPacketSize: maximumPacketSize, referenceTime: reference, canonicalName: canonicalName)
        }
        videoTrack = video == nil ? nil : 0
        audioTrack = audio == nil ? nil : (video == nil ? 0 : 1)
    }

    /// Sends one frame: its RTP packets, then a sender report when a second has passed since the last.
    /// - Parameters:
    ///   - media: the frame (a track the sender does not have is passed over).
    ///   - output: where the packets go.
    /// - Throws: an ``RTPPacketizerError`` or ``RTCPError``.
    public mutating func send(_ media: OutgoingMedia, to output: Output) throws {
        try send(media) { (bytes: UnsafeRawBufferPointer, track: Int, timestamp: UInt32?) in output(bytes, track, timestamp == nil) }
    }

    /// Sends one frame: its RTP packets, each with its RTP timestamp (RFC 3550 §5.1), then a sender report
    /// (RFC 3550 §6.4.1) when a second has passed since the last.
    /// - Parameters:
    ///   - media: the frame (a track the sender does not have is passed over).
    ///   - output: where the packets go; the timestamp is `nil` for RTCP.
    /// - Throws: an ``RTPPacketizerError`` or ``RTCPError``.
    public mutating func send(_ media: OutgoingMedia, timedOutput output: TimedOutput) throws {
        switch media {
        case let .video(frame, _):
            // Taken out and put back, so that the packetizer's buffer is changed in place, never copied.
            guard let track = videoTrack, var stream = video.take() else { return }
            defer { video = stream }
            let timestamp = stream.rtpTimestamp(at: frame.pts)
            try stream.send(frame) { packet in output(packet, track, timestamp) }
            if let report = try stream.reportIfDue(at: frame.pts) { report.withUnsafeBytes { output($0, track, nil) } }
        case let .audio(frame, _):
            guard let track = audioTrack, var stream = audio.take() else { return }
            defer { audio = stream }
            let timestamp = stream.rtpTimestamp(at: frame.pts)
            try stream.send(frame) { packet in output(packet, track, timestamp) }
            if let report = try stream.reportIfDue(at: frame.pts) { report.withUnsafeBytes { output($0, track, nil) } }
        }
    }

    /// The RTCP BYE of every track (RFC 3550 §6.6), each after a last sender report.
    /// - Returns: (track, packet) pairs.
    /// - Throws: ``RTCPError``.
    public func goodbye() throws(RTCPError) -> [(track: Int, bytes: [UInt8])] {
        var result: [(Int, [UInt8])] = []
        if let videoTrack, let video { result.append((videoTrack, try video.goodbyePacket())) }
        if let audioTrack, let audio { result.append((audioTrack, try audio.goodbyePacket())) }
        return result
    }
}

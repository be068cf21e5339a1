import Foundation
import Live
import MediaCore
import RTP

/// The network commands' (`stream`, `serve`) use of the library's ``RTPStreamSender``: each ``FeedItem``'s packets
/// handed to an asynchronous output that knows the sockets.
struct RTPMediaSender {
    /// Where packets go: the track (0 video, 1 audio — or 0 for the only one) and whether RTCP.
    typealias Output = (_ bytes: [UInt8], _ track: Int, _ isControl: Bool) async throws -> Void

    private var sender: RTPStreamSender

    /// A sender.
    /// - Parameters:
    ///   - videoFormat: the video's format (from the first encoded frame), if any.
    ///   - audioFormat: the audio's format, if any.
    ///   - maximumPacketSize: the largest RTP packet.
    ///   - wallClockStart: the wall-clock time of media time zero.
    /// - Throws: ``RTPPacketizerError`` for a packet size too small.
    init(videoFormat: FormatDescription?, audioFormat: AudioFormatDescription?, maximumPacketSize: Int, wallClockStart: Date) throws {
        sender = try RTPStreamSender(video: videoFormat, audio: audioFormat, maximumPacketSize: maximumPacketSize,
                                     wallClockStart: wallClockStart)
    }

    /// Sends one encoded item: its RTP packets, then a sender report when a second has passed.
    /// - Parameters:
    ///   - item: the frame.
    ///   - output: where the packets go.
    /// - Throws: a packetizer or output failure.
    mutating func send(_ item: FeedItem, to output: Output) async throws {
        var packets: [(bytes: [UInt8], track: Int, isControl: Bool)] = []
        switch item {
        case let .video(frame): try sender.send(.video(frame, index: 0)) { packets.append((Array($0), $1, $2)) }
        case let .audio(frame): try sender.send(.audio(frame, index: 0)) { packets.append((Array($0), $1, $2)) }
        }
        for packet in packets { try await output(packet.bytes, packet.track, packet.isControl) }
    }

    /// The RTCP BYE of every stream (RFC 3550 §6.6), with a last sender report before it.
    /// - Returns: (track, packet) pairs.
    func goodbye() throws -> [(track: Int, bytes: [UInt8])] {
        try sender.goodbye()
    }
}

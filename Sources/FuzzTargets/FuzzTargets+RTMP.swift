import Bitstream
import RTMPWire

extension FuzzTargets {
    /// The RTMP layer: the chunk-stream parser (Adobe RTMP specification 1.0 §5.3) on the input whole and cut where
    /// the input says — both must hand out the same messages or fail alike — then every message it hands out read as
    /// a protocol control message, a user control event and an AMF0 command; what parses is chunked again by the
    /// writer and must parse back to the same messages.
    static func rtmp(_ bytes: [UInt8]) {
        let limits = RTMPLimits(maximumChunkSize: 1 << 16, maximumMessageLength: 1 << 16, maximumChunkStreams: 16,
                                maximumBufferedBytes: 1 << 17, maximumAMFDepth: 16)
        let whole = rtmpMessages(bytes, cuts: [], limits: limits)
        let cuts = bytes.prefix(3).map { Int($0) * max(1, bytes.count / 256) }
        let chunked = rtmpMessages(bytes, cuts: cuts, limits: limits)
        precondition(whole.messages.count == chunked.messages.count || whole.failed || chunked.failed,
                     "RTMP: cutting the input changed the messages")
        for (a, b) in zip(whole.messages, chunked.messages) {
            precondition(a.type == b.type && a.timestamp == b.timestamp && a.streamID == b.streamID && a.payload == b.payload,
                         "RTMP: cutting the input changed a message")
        }
        var writer = RTMPChunkStreamWriter()
        var rewritten: [UInt8] = []
        for message in whole.messages {
            _ = try? RTMPControlMessage(message)
            _ = try? RTMPUserControlEvent(message)
            if let command = try? RTMPCommand(message, limits: limits), let again = try? command.message(streamID: message.streamID) {
                _ = command.status
                _ = try? RTMPCommand(again, limits: limits)
            }
            // Set Chunk Size and Abort change how the rewritten stream parses: leave them out.
            guard message.type != .setChunkSize, message.type != .abort else { continue }
            writer.write(message, chunkStreamID: max(2, message.chunkStreamID), into: &rewritten)
        }
        let reparsed = rtmpMessages(rewritten, cuts: [], limits: RTMPLimits(maximumChunkStreams: 1 << 17))
        let kept = whole.messages.filter { $0.type != .setChunkSize && $0.type != .abort }
        precondition(!reparsed.failed && reparsed.messages.count == kept.count, "RTMP: written messages do not parse back")
        for (a, b) in zip(reparsed.messages, kept) {
            precondition(a.type == b.type && a.timestamp == b.timestamp && a.streamID == b.streamID && a.payload == b.payload,
                         "RTMP: a written message parses back different")
        }
    }

    private static func rtmpMessages(_ bytes: [UInt8], cuts: [Int], limits: RTMPLimits) -> (messages: [RTMPMessage], failed: Bool) {
        var parser = RTMPChunkStreamParser(limits: limits)
        var messages: [RTMPMessage] = []
        var start = 0
        for end in (cuts.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]) where end >= start {
            parser.append(bytes[start..<end])
            start = end
            do {
                while let item = try parser.next() {
                    if case let .message(message) = item { messages.append(message) }
                }
            } catch {
                return (messages, true)
            }
        }
        return (messages, false)
    }
}

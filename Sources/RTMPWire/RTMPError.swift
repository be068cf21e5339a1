import TransportErrors

/// Why an RTMP connection, handshake or command failed.
///
/// Malformed input from a peer names where it went wrong: the chunk stream id, the message type and the byte offset
/// in the connection's stream (counted from the first byte after the handshake).
public enum RTMPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The handshake (Adobe RTMP specification 1.0 §5.2) went wrong: a wrong version, a short read.
    case handshake(String)
    /// A peer asked for a chunk size (§5.4.1) that is 0, has the top bit set or is above the limit.
    case chunkSizeOutOfRange(requested: UInt32, limit: Int, offset: Int)
    /// A message header (§5.3.1.2) declares a length past the limit.
    case messageTooLong(length: Int, limit: Int, chunkStreamID: UInt32, messageType: UInt8, offset: Int)
    /// A chunk of format 1, 2 or 3 arrived on a chunk stream that no format-0 chunk opened (§5.3.1.2).
    case chunkStreamNotOpened(chunkStreamID: UInt32, format: UInt8, offset: Int)
    /// A format-0 or format-1 chunk began a new message while the previous one of that chunk stream was incomplete.
    case interruptedMessage(chunkStreamID: UInt32, received: Int, expected: Int, offset: Int)
    /// More chunk streams are open than the limit allows.
    case tooManyChunkStreams(limit: Int, chunkStreamID: UInt32, offset: Int)
    /// The bytes held for incomplete messages, over every chunk stream, passed the limit.
    case bufferLimitExceeded(limit: Int, chunkStreamID: UInt32, offset: Int)
    /// A message's body is not what its type requires (a protocol control message of the wrong size, a command
    /// that is not AMF0, an AMF0 value too deep…).
    case malformedMessage(messageType: UInt8, chunkStreamID: UInt32, reason: String)
    /// A command answered with `_error`, or an `onStatus` of level `error` (§7.2): the code and description the
    /// peer gave, for example `NetStream.Publish.BadName`.
    case refused(command: String, code: String, description: String)
    /// A command got no answer in time.
    case timedOut(command: String)
    /// The peer did something the protocol does not allow at that point (a `publish` before `connect`).
    case protocolViolation(String)
    /// The URL is not `rtmp[s]://host[:port]/app[/…]/stream`.
    case invalidURL(String, reason: String)
    /// The peer closed the connection.
    case connectionClosed
    /// The peer closed the connection in the middle of a message (a publisher that vanished mid-tag).
    case closedMidMessage(offset: Int)
    /// The socket failed.
    case transport(TransportError)
    /// A byte channel other than TCP (for example TLS) failed; the text is its reason.
    case channel(String)

    /// A sentence naming what went wrong and where.
    public var description: String {
        switch self {
        case let .handshake(reason): return "RTMP handshake failed: \(reason)"
        case let .chunkSizeOutOfRange(requested, limit, offset):
            return "Set Chunk Size \(requested) at offset \(offset) is outside 1...\(limit)"
        case let .messageTooLong(length, limit, chunkStreamID, messageType, offset):
            return "message of type \(messageType) on chunk stream \(chunkStreamID) at offset \(offset) declares \(length) bytes, over the limit of \(limit)"
        case let .chunkStreamNotOpened(chunkStreamID, format, offset):
            return "chunk of format \(format) at offset \(offset) on chunk stream \(chunkStreamID), which no format-0 chunk opened"
        case let .interruptedMessage(chunkStreamID, received, expected, offset):
            return "a new message header at offset \(offset) on chunk stream \(chunkStreamID) interrupts a message with \(received) of \(expected) bytes"
        case let .tooManyChunkStreams(limit, chunkStreamID, offset):
            return "chunk stream \(chunkStreamID) at offset \(offset) would be open stream number \(limit + 1), over the limit"
        case let .bufferLimitExceeded(limit, chunkStreamID, offset):
            return "incomplete messages hold more than \(limit) bytes (chunk stream \(chunkStreamID), offset \(offset))"
        case let .malformedMessage(messageType, chunkStreamID, reason):
            return "malformed message of type \(messageType) on chunk stream \(chunkStreamID): \(reason)"
        case let .refused(command, code, description):
            return "\(command) refused: \(code)\(description.isEmpty ? "" : " (\(description))")"
        case let .timedOut(command): return "no answer to \(command) in time"
        case let .protocolViolation(reason): return "RTMP protocol violation: \(reason)"
        case let .invalidURL(url, reason): return "invalid RTMP URL \(url): \(reason)"
        case .connectionClosed: return "the RTMP connection was closed by the peer"
        case let .closedMidMessage(offset): return "the peer closed the connection in the middle of a message, at offset \(offset)"
        case let .transport(error): return error.description
        case let .channel(reason): return reason
        }
    }
}

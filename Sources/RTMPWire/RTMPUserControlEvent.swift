import Bitstream

/// A User Control event (Adobe RTMP specification 1.0 §6.2 and §7.1.7): message type 4, a 2-byte event type and
/// its data, on message stream 0 and chunk stream 2.
public enum RTMPUserControlEvent: Sendable, Hashable {
    /// Stream Begin (0): the stream is ready to be used.
    case streamBegin(streamID: UInt32)
    /// Stream EOF (1): the playback of the stream is over.
    case streamEOF(streamID: UInt32)
    /// Stream Dry (2): no more data on the stream for now.
    case streamDry(streamID: UInt32)
    /// Set Buffer Length (3): the client's buffer, in milliseconds.
    case setBufferLength(streamID: UInt32, milliseconds: UInt32)
    /// Stream Is Recorded (4).
    case streamIsRecorded(streamID: UInt32)
    /// Ping Request (6): the server's timestamp, to be echoed.
    case pingRequest(timestamp: UInt32)
    /// Ping Response (7): the echo of a Ping Request.
    case pingResponse(timestamp: UInt32)
    /// Any other event type, with its data.
    case other(eventType: UInt16, data: [UInt8])

    /// Reads an event.
    /// - Parameter message: a message of type 4.
    /// - Throws: ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` for a body too short for its event.
    public init(_ message: RTMPMessage) throws(RTMPError) {
        let payload = message.payload
        func fail(_ reason: String) -> RTMPError {
            .malformedMessage(messageType: message.type.rawValue, chunkStreamID: message.chunkStreamID, reason: reason)
        }
        guard let eventType = payload.getInteger(at: 0, endianness: .big, as: UInt16.self) else {
            throw fail("a user control message of \(payload.count) bytes has no event type")
        }
        let first = payload.getInteger(at: 2, endianness: .big, as: UInt32.self)
        switch eventType {
        case 0...2, 4, 6, 7:
            guard let first else { throw fail("user control event \(eventType) lacks its 4-byte value") }
            switch eventType {
            case 0: self = .streamBegin(streamID: first)
            case 1: self = .streamEOF(streamID: first)
            case 2: self = .streamDry(streamID: first)
            case 4: self = .streamIsRecorded(streamID: first)
            case 6: self = .pingRequest(timestamp: first)
            default: self = .pingResponse(timestamp: first)
            }
        case 3:
            guard let first, let length = payload.getInteger(at: 6, endianness: .big, as: UInt32.self) else {
                throw fail("Set Buffer Length needs 10 bytes, got \(payload.count)")
            }
            self = .setBufferLength(streamID: first, milliseconds: length)
        default:
            self = .other(eventType: eventType, data: Array(payload.dropFirst(2)))
        }
    }

    /// The message body: event type and data.
    public var body: [UInt8] {
        func word(_ value: UInt32) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
             UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }
        switch self {
        case let .streamBegin(id): return [0, 0] + word(id)
        case let .streamEOF(id): return [0, 1] + word(id)
        case let .streamDry(id): return [0, 2] + word(id)
        case let .setBufferLength(id, milliseconds): return [0, 3] + word(id) + word(milliseconds)
        case let .streamIsRecorded(id): return [0, 4] + word(id)
        case let .pingRequest(timestamp): return [0, 6] + word(timestamp)
        case let .pingResponse(timestamp): return [0, 7] + word(timestamp)
        case let .other(eventType, data): return [UInt8(eventType >> 8), UInt8(truncatingIfNeeded: eventType)] + data
        }
    }

    /// The message to send: type 4 on message stream 0, chunk stream 2.
    public var message: RTMPMessage {
        RTMPMessage(type: .userControl, streamID: 0, timestamp: 0, payload: ByteView(body), chunkStreamID: 2)
    }
}

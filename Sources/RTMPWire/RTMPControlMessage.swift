import Bitstream

/// A protocol control message (Adobe RTMP specification 1.0 §5.4): sent on message stream 0, chunk stream 2.
public enum RTMPControlMessage: Sendable, Hashable {
    /// Set Chunk Size (§5.4.1): the largest chunk the sender will send from now on (31 bits).
    case setChunkSize(UInt32)
    /// Abort Message (§5.4.2): drop the incomplete message of this chunk stream.
    case abort(chunkStreamID: UInt32)
    /// Acknowledgement (§5.4.3): the bytes received so far (the sequence number).
    case acknowledgement(sequenceNumber: UInt32)
    /// Window Acknowledgement Size (§5.4.4): acknowledge every this many bytes.
    case windowAcknowledgementSize(UInt32)
    /// Set Peer Bandwidth (§5.4.5): the window size and the limit type (0 hard, 1 soft, 2 dynamic).
    case setPeerBandwidth(UInt32, limitType: UInt8)

    /// Reads a protocol control message.
    /// - Parameter message: a message of type 1, 2, 3, 5 or 6.
    /// - Throws: ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` for a short body or another type.
    public init(_ message: RTMPMessage) throws(RTMPError) {
        let needed = message.type == .setPeerBandwidth ? 5 : 4
        guard let value = message.payload.getInteger(at: 0, endianness: .big, as: UInt32.self), message.payload.count >= needed else {
            throw .malformedMessage(messageType: message.type.rawValue, chunkStreamID: message.chunkStreamID,
                                    reason: "\(message.payload.count) bytes, \(needed) needed")
        }
        switch message.type {
        case .setChunkSize: self = .setChunkSize(value & 0x7FFF_FFFF)
        case .abort: self = .abort(chunkStreamID: value)
        case .acknowledgement: self = .acknowledgement(sequenceNumber: value)
        case .windowAcknowledgementSize: self = .windowAcknowledgementSize(value)
        case .setPeerBandwidth: self = .setPeerBandwidth(value, limitType: message.payload[4])
        default:
            throw .malformedMessage(messageType: message.type.rawValue, chunkStreamID: message.chunkStreamID,
                                    reason: "not a protocol control message")
        }
    }

    /// The message type id.
    public var type: RTMPMessageType {
        switch self {
        case .setChunkSize: return .setChunkSize
        case .abort: return .abort
        case .acknowledgement: return .acknowledgement
        case .windowAcknowledgementSize: return .windowAcknowledgementSize
        case .setPeerBandwidth: return .setPeerBandwidth
        }
    }

    /// The message body.
    public var body: [UInt8] {
        func word(_ value: UInt32) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
             UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }
        switch self {
        case let .setChunkSize(size): return word(size & 0x7FFF_FFFF)
        case let .abort(chunkStreamID): return word(chunkStreamID)
        case let .acknowledgement(sequenceNumber): return word(sequenceNumber)
        case let .windowAcknowledgementSize(size): return word(size)
        case let .setPeerBandwidth(size, limitType): return word(size) + [limitType]
        }
    }

    /// The message to send: message stream 0, chunk stream 2 (§5.4), timestamp 0.
    public var message: RTMPMessage {
        RTMPMessage(type: type, streamID: 0, timestamp: 0, payload: ByteView(body), chunkStreamID: 2)
    }
}

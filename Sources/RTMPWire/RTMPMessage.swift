import Bitstream

/// One RTMP message (Adobe RTMP specification 1.0 §6.1): its type, the message stream it belongs to, its timestamp
/// in milliseconds and its body — a view into the buffer it was reassembled in, not a copy.
public struct RTMPMessage: Sendable {
    /// The message type id.
    public var type: RTMPMessageType
    /// The message stream id (0 for the NetConnection and protocol control, else a NetStream from `createStream`).
    public var streamID: UInt32
    /// The timestamp in milliseconds (32 bits, wrapping).
    public var timestamp: UInt32
    /// The body.
    public var payload: ByteView
    /// The chunk stream it arrived on (or is to be sent on; 0 lets the sender choose by type).
    public var chunkStreamID: UInt32

    /// A message.
    /// - Parameters:
    ///   - type: the type id.
    ///   - streamID: the message stream id.
    ///   - timestamp: milliseconds.
    ///   - payload: the body.
    ///   - chunkStreamID: the chunk stream; 0 lets the sender choose.
    public init(type: RTMPMessageType, streamID: UInt32, timestamp: UInt32, payload: ByteView, chunkStreamID: UInt32 = 0) {
        self.type = type
        self.streamID = streamID
        self.timestamp = timestamp
        self.payload = payload
        self.chunkStreamID = chunkStreamID
    }

    /// The body's bytes, copied.
    public var bytes: [UInt8] {
        payload.withUnsafeBytes { Array($0) }
    }
}

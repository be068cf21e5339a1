/// What ``RTMPChunkStreamParser/next()`` hands out: a whole message, or a named event of the stream.
public enum RTMPChunkStreamItem: Sendable {
    /// A message, reassembled from its chunks.
    case message(RTMPMessage)
    /// A message began with a timestamp earlier than the previous message of its chunk stream (by less than half
    /// the 32-bit range, so not a wrap): reported, and the message is still handed out after it.
    case timestampWentBack(chunkStreamID: UInt32, previous: UInt32, timestamp: UInt32)
}

import Bitstream

/// Reassembles RTMP messages from the chunk stream a peer sends (Adobe RTMP specification 1.0 §5.3): basic headers
/// of 1–3 bytes (§5.3.1.1), message headers of format 0–3 (§5.3.1.2), extended timestamps (§5.3.1.3) including on
/// format-3 chunks, any number of chunk streams interleaved. Set Chunk Size (§5.4.1) and Abort (§5.4.2) take effect
/// here, at once, and are handed out as messages as well.
///
/// Feed it what arrives (``append(_:)``) and take messages (``next()``) until it returns `nil`. Every declared
/// size is checked against ``RTMPLimits`` before a byte is held; after an error the parser stays failed.
///
/// ```swift
/// var parser = RTMPChunkStreamParser()
/// parser.append(bytesFromTheSocket)
/// while let item = try parser.next() {
///     if case let .message(message) = item { … }
/// }
/// ```
public struct RTMPChunkStreamParser: Sendable {
    private struct ChunkStream {
        var timestamp: UInt32 = 0
        /// The timestamp field of the last header (a delta, or the absolute timestamp after format 0), which a
        /// format-3 chunk starting a new message adds again.
        var timestampField: UInt32 = 0
        var length = 0
        var type: UInt8 = 0
        var streamID: UInt32 = 0
        var hasExtendedTimestamp = false
        var payload: [UInt8] = []
        var isInProgress = false
        var hasCompletedMessage = false
    }

    /// The limits enforced.
    public let limits: RTMPLimits
    /// The chunk size the peer sends with (128 until it sends Set Chunk Size).
    public private(set) var chunkSize = 128
    /// Every byte appended so far (what Acknowledgement counts, §5.4.3).
    public private(set) var receivedByteCount = 0
    /// The offset, in the stream appended, of the first byte not yet parsed.
    public private(set) var offset = 0

    private var input: [UInt8] = []
    private var readIndex = 0
    private var streams: [UInt32: ChunkStream] = [:]
    private var bufferedByteCount = 0
    private var pending: RTMPChunkStreamItem?
    private var failure: RTMPError?

    /// A parser with the given limits.
    /// - Parameter limits: the caps on chunk size, message length, chunk streams and buffered bytes.
    public init(limits: RTMPLimits = RTMPLimits()) {
        self.limits = limits
    }

    /// Appends bytes that arrived.
    /// - Parameter bytes: the next bytes of the chunk stream.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if readIndex > 65_536, readIndex * 2 > input.count {
            input.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        input.append(contentsOf: bytes)
        receivedByteCount += bytes.count
    }

    /// Whether part of a message (or of a chunk) has arrived and not the rest: a peer that closes now vanished
    /// mid-message.
    public var hasIncompleteMessage: Bool { bufferedByteCount > 0 || input.count > readIndex || streams.values.contains { $0.isInProgress } }

    /// How many appended bytes wait to be parsed (at most one chunk plus what the last read brought).
    public var unparsedByteCount: Int { input.count - readIndex }

    /// The next message or event, once its bytes have arrived.
    /// - Returns: the item, or `nil` when more bytes are needed.
    /// - Throws: ``RTMPError`` naming the chunk stream, the message type and the offset.
    public mutating func next() throws(RTMPError) -> RTMPChunkStreamItem? {
        if let failure { throw failure }
        if let item = pending {
            pending = nil
            return item
        }
        do {
            while true {
                guard let (item, complete) = try parseChunk() else { return nil }
                if let item { return item }
                if !complete { continue }
            }
        } catch {
            failure = error
            throw error
        }
    }

    private func byte(_ index: Int) -> UInt32 { UInt32(input[readIndex + index]) }

    private func uint24(at index: Int) -> UInt32 { byte(index) << 16 | byte(index + 1) << 8 | byte(index + 2) }

    private func uint32(at index: Int) -> UInt32 { byte(index) << 24 | byte(index + 1) << 16 | byte(index + 2) << 8 | byte(index + 3) }

    /// Parses one chunk if all of it has arrived.
    /// - Returns: `nil` when more bytes are needed; else the item to hand out (if any) and whether the loop goes on.
    private mutating func parseChunk() throws(RTMPError) -> (RTMPChunkStreamItem?, Bool)? {
        let available = input.count - readIndex
        guard available >= 1 else { return nil }
        let first = byte(0)
        let format = UInt8(first >> 6)
        var cursor = 1
        var chunkStreamID = first & 0x3F
        if chunkStreamID == 0 {
            guard available >= 2 else { return nil }
            chunkStreamID = 64 + byte(1)
            cursor = 2
        } else if chunkStreamID == 1 {
            guard available >= 3 else { return nil }
            chunkStreamID = 64 + byte(1) + byte(2) << 8
            cursor = 3
        }
        let headerLength = [11, 7, 3, 0][Int(format)]
        guard available >= cursor + headerLength else { return nil }
        var stream: ChunkStream
        if let known = streams[chunkStreamID] {
            stream = known
        } else {
            guard format == 0 else { throw .chunkStreamNotOpened(chunkStreamID: chunkStreamID, format: format, offset: offset) }
            guard streams.count < limits.maximumChunkStreams else {
                throw .tooManyChunkStreams(limit: limits.maximumChunkStreams, chunkStreamID: chunkStreamID, offset: offset)
            }
            stream = ChunkStream()
        }
        let previousTimestamp = stream.timestamp
        let startsMessage = format < 3 || !stream.isInProgress
        if format < 3, stream.isInProgress {
            throw .interruptedMessage(chunkStreamID: chunkStreamID, received: stream.payload.count, expected: stream.length, offset: offset)
        }
        var field: UInt32 = 0
        if format < 3 {
            field = uint24(at: cursor)
            if format <= 1 {
                stream.length = Int(uint24(at: cursor + 3))
                stream.type = UInt8(byte(cursor + 6))
            }
            if format == 0 {
                let id = input[readIndex + cursor + 7..<readIndex + cursor + 11]
                stream.streamID = id.reversed().reduce(0) { $0 << 8 | UInt32($1) }
            }
            cursor += headerLength
            stream.hasExtendedTimestamp = field == 0xFF_FFFF
            if stream.hasExtendedTimestamp {
                guard available >= cursor + 4 else { return nil }
                field = uint32(at: cursor)
                cursor += 4
            }
            stream.timestampField = field
            stream.timestamp = format == 0 ? field : stream.timestamp &+ field
        } else if stream.hasExtendedTimestamp {
            guard available >= cursor + 4 else { return nil }
            if startsMessage {
                cursor += 4
            } else if uint32(at: cursor) == stream.timestampField {
                // §5.3.1.3 repeats the extended timestamp on format-3 chunks; some peers leave it out on
                // continuation chunks, so it is taken only when it is there.
                cursor += 4
            }
        }
        if format == 3, startsMessage {
            stream.timestamp = stream.timestamp &+ stream.timestampField
        }
        if startsMessage, stream.length > limits.maximumMessageLength {
            throw .messageTooLong(length: stream.length, limit: limits.maximumMessageLength, chunkStreamID: chunkStreamID,
                                  messageType: stream.type, offset: offset)
        }
        let take = min(chunkSize, stream.length - stream.payload.count)
        guard available >= cursor + take else { return nil }
        if bufferedByteCount + take > limits.maximumBufferedBytes {
            throw .bufferLimitExceeded(limit: limits.maximumBufferedBytes, chunkStreamID: chunkStreamID, offset: offset)
        }
        // The whole chunk is here: commit it.
        stream.payload.append(contentsOf: input[(readIndex + cursor)..<(readIndex + cursor + take)])
        bufferedByteCount += take
        readIndex += cursor + take
        offset += cursor + take
        var regression: RTMPChunkStreamItem?
        if startsMessage, format == 0, stream.hasCompletedMessage, stream.timestamp < previousTimestamp,
           previousTimestamp &- stream.timestamp < 0x8000_0000 {
            regression = .timestampWentBack(chunkStreamID: chunkStreamID, previous: previousTimestamp, timestamp: stream.timestamp)
        }
        guard stream.payload.count == stream.length else {
            stream.isInProgress = true
            streams[chunkStreamID] = stream
            return (regression, true)
        }
        let message = RTMPMessage(type: RTMPMessageType(rawValue: stream.type), streamID: stream.streamID,
                                  timestamp: stream.timestamp, payload: ByteView(stream.payload), chunkStreamID: chunkStreamID)
        bufferedByteCount -= stream.payload.count
        stream.payload = []
        stream.isInProgress = false
        stream.hasCompletedMessage = true
        streams[chunkStreamID] = stream
        try apply(message)
        if let regression {
            pending = .message(message)
            return (regression, true)
        }
        return (.message(message), true)
    }

    /// Set Chunk Size (§5.4.1) and Abort (§5.4.2) change how the following chunks are read.
    private mutating func apply(_ message: RTMPMessage) throws(RTMPError) {
        guard message.type == .setChunkSize || message.type == .abort else { return }
        guard message.payload.count >= 4, let value = message.payload.getInteger(at: 0, endianness: .big, as: UInt32.self) else {
            throw .malformedMessage(messageType: message.type.rawValue, chunkStreamID: message.chunkStreamID,
                                    reason: "\(message.payload.count) bytes, not 4")
        }
        if message.type == .setChunkSize {
            guard value & 0x8000_0000 == 0, value >= 1, Int(value) <= limits.maximumChunkSize else {
                throw .chunkSizeOutOfRange(requested: value, limit: limits.maximumChunkSize, offset: offset)
            }
            chunkSize = Int(value)
        } else if var aborted = streams[value], aborted.isInProgress {
            bufferedByteCount -= aborted.payload.count
            aborted.payload = []
            aborted.isInProgress = false
            streams[value] = aborted
        }
    }
}

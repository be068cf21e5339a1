import Bitstream
import Containers

/// Cuts messages into chunks (Adobe RTMP specification 1.0 §5.3): the smallest message header that says what
/// changed since the last message of the chunk stream (format 0 for a new message stream or a timestamp that went
/// back, 1 for a new length or type, 2 for a new delta, 3 for none), extended timestamps (§5.3.1.3) from 2^24 − 1
/// on, repeated on every format-3 chunk of the message.
///
/// ```swift
/// var writer = RTMPChunkStreamWriter()
/// var bytes: [UInt8] = []
/// writer.write(message, chunkStreamID: 6, into: &bytes)
/// ```
public struct RTMPChunkStreamWriter: Sendable {
    private struct Last {
        var timestamp: UInt32
        var timestampField: UInt32
        var length: Int
        var type: UInt8
        var streamID: UInt32
    }

    /// The chunk size used (128 until ``chunkSize`` is set; send Set Chunk Size before the next message).
    public var chunkSize = 128
    private var last: [UInt32: Last] = [:]
    /// Where an FLV tag body's header is written before it is cut into chunks (kept, so it is allocated once).
    private var headerScratch: [UInt8] = []

    /// A writer with the default chunk size of 128 bytes.
    public init() {}

    /// Appends the chunks of one message.
    /// - Parameters:
    ///   - message: the message (its ``RTMPMessage/chunkStreamID`` is ignored).
    ///   - chunkStreamID: the chunk stream, 2…65 599.
    ///   - output: where the chunks go.
    public mutating func write(_ message: RTMPMessage, chunkStreamID: UInt32, into output: inout [UInt8]) {
        message.payload.withUnsafeBytes { payload in
            appendChunks(type: message.type.rawValue, streamID: message.streamID, timestamp: message.timestamp,
                         chunkStreamID: chunkStreamID, header: UnsafeRawBufferPointer(start: nil, count: 0), payload: payload, into: &output)
        }
    }

    /// Appends the chunks of one audio or video message whose body is an FLV tag body: its header, written into
    /// a buffer the writer keeps, and its payload, copied from its view straight into the chunks — no message
    /// body is put together first, so a coded picture costs no allocation once `output` has grown.
    /// - Parameters:
    ///   - body: the tag body (FLV 10.1 §E.4.2.1, §E.4.3.1; Enhanced RTMP's ExVideoTagHeader).
    ///   - type: the message type (``RTMPMessageType/audio`` or ``RTMPMessageType/video``).
    ///   - streamID: the message stream id.
    ///   - timestamp: milliseconds.
    ///   - chunkStreamID: the chunk stream, 2…65 599.
    ///   - output: where the chunks go.
    /// - Throws: what ``FLVTagBody/appendHeader(to:)`` throws; nothing is written then.
    public mutating func write<Body: FLVTagBody>(_ body: Body, type: RTMPMessageType, streamID: UInt32, timestamp: UInt32,
                                                 chunkStreamID: UInt32, into output: inout [UInt8]) throws(FLVError) {
        // The scratch buffer is taken out of `self` while the chunks are appended (no overlapping access).
        var header: [UInt8] = []
        swap(&header, &headerScratch)
        defer { swap(&header, &headerScratch) }
        header.removeAll(keepingCapacity: true)
        try body.appendHeader(to: &header)
        header.withUnsafeBytes { header in
            body.payload.withUnsafeBytes { payload in
                appendChunks(type: type.rawValue, streamID: streamID, timestamp: timestamp, chunkStreamID: chunkStreamID,
                             header: header, payload: payload, into: &output)
            }
        }
    }

    /// Appends the chunks of a message whose body is `header` followed by `payload` (§5.3.1).
    private mutating func appendChunks(type: UInt8, streamID: UInt32, timestamp: UInt32, chunkStreamID: UInt32,
                                       header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        let length = header.count + payload.count
        var format: UInt8 = 0
        var field = timestamp
        if let previous = last[chunkStreamID], previous.streamID == streamID, timestamp >= previous.timestamp {
            field = timestamp - previous.timestamp
            if previous.length == length, previous.type == type {
                format = field == previous.timestampField ? 3 : 2
            } else {
                format = 1
            }
        }
        last[chunkStreamID] = Last(timestamp: timestamp, timestampField: field, length: length, type: type, streamID: streamID)
        let extended = field >= 0xFF_FFFF
        output.reserveCapacity(output.count + length + 18 + (length / max(1, chunkSize)) * 8)
        appendBasicHeader(format: format, chunkStreamID: chunkStreamID, to: &output)
        if format < 3 {
            appendUInt24(extended ? 0xFF_FFFF : field, to: &output)
            if format <= 1 {
                appendUInt24(UInt32(length), to: &output)
                output.append(type)
            }
            if format == 0 {
                for shift in stride(from: UInt32(0), through: 24, by: 8) { output.append(UInt8(truncatingIfNeeded: streamID >> shift)) }
            }
        }
        if extended { appendUInt32(field, to: &output) }
        var sent = 0
        repeat {
            let take = min(chunkSize, length - sent)
            if sent > 0 {
                appendBasicHeader(format: 3, chunkStreamID: chunkStreamID, to: &output)
                if extended { appendUInt32(field, to: &output) }
            }
            // The chunk's bytes: what is left of the header, then of the payload.
            let fromHeader = max(0, min(take, header.count - sent))
            if fromHeader > 0 { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: header[sent..<(sent + fromHeader)])) }
            let payloadStart = sent + fromHeader - header.count
            if take > fromHeader {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[payloadStart..<(payloadStart + take - fromHeader)]))
            }
            sent += take
        } while sent < length
    }

    /// The basic header (§5.3.1.1): one byte for chunk streams 2–63, two for 64–319, three for 320–65 599.
    private func appendBasicHeader(format: UInt8, chunkStreamID: UInt32, to output: inout [UInt8]) {
        switch chunkStreamID {
        case ..<64: output.append(format << 6 | UInt8(chunkStreamID))
        case ..<320:
            output.append(format << 6)
            output.append(UInt8(chunkStreamID - 64))
        default:
            let value = chunkStreamID - 64
            output.append(format << 6 | 1)
            output.append(UInt8(truncatingIfNeeded: value))
            output.append(UInt8(truncatingIfNeeded: value >> 8))
        }
    }

    private func appendUInt24(_ value: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(truncatingIfNeeded: value >> 16))
        output.append(UInt8(truncatingIfNeeded: value >> 8))
        output.append(UInt8(truncatingIfNeeded: value))
    }

    private func appendUInt32(_ value: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(truncatingIfNeeded: value >> 24))
        appendUInt24(value, to: &output)
    }
}

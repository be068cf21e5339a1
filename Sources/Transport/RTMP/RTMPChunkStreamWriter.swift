import Bitstream

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

    /// A writer with the default chunk size of 128 bytes.
    public init() {}

    /// Appends the chunks of one message.
    /// - Parameters:
    ///   - message: the message (its ``RTMPMessage/chunkStreamID`` is ignored).
    ///   - chunkStreamID: the chunk stream, 2…65 599.
    ///   - output: where the chunks go.
    public mutating func write(_ message: RTMPMessage, chunkStreamID: UInt32, into output: inout [UInt8]) {
        let length = message.payload.count
        let type = message.type.rawValue
        var format: UInt8 = 0
        var field = message.timestamp
        if let previous = last[chunkStreamID], previous.streamID == message.streamID, message.timestamp >= previous.timestamp {
            field = message.timestamp - previous.timestamp
            if previous.length == length, previous.type == type {
                format = field == previous.timestampField ? 3 : 2
            } else {
                format = 1
            }
        }
        last[chunkStreamID] = Last(timestamp: message.timestamp, timestampField: field, length: length, type: type,
                                   streamID: message.streamID)
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
                for shift in [0, 8, 16, 24] { output.append(UInt8(truncatingIfNeeded: message.streamID >> UInt32(shift))) }
            }
        }
        if extended { appendUInt32(field, to: &output) }
        message.payload.withUnsafeBytes { payload in
            var sent = 0
            repeat {
                let take = min(chunkSize, length - sent)
                if sent > 0 {
                    appendBasicHeader(format: 3, chunkStreamID: chunkStreamID, to: &output)
                    if extended { appendUInt32(field, to: &output) }
                }
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[sent..<(sent + take)]))
                sent += take
            } while sent < length
        }
    }

    /// The basic header (§5.3.1.1): one byte for chunk streams 2–63, two for 64–319, three for 320–65 599.
    private func appendBasicHeader(format: UInt8, chunkStreamID: UInt32, to output: inout [UInt8]) {
        switch chunkStreamID {
        case ..<64: output.append(format << 6 | UInt8(chunkStreamID))
        case ..<320: output += [format << 6, UInt8(chunkStreamID - 64)]
        default:
            let value = chunkStreamID - 64
            output += [format << 6 | 1, UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
    }

    private func appendUInt24(_ value: UInt32, to output: inout [UInt8]) {
        output += [UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    private func appendUInt32(_ value: UInt32, to output: inout [UInt8]) {
        output += [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                   UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}

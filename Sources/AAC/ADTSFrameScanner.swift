/// Splits an ADTS byte stream into frames (ISO/IEC 13818-7 §6.2.1 `adts_sequence()`), whether it
/// arrives whole or in chunks cut anywhere.
///
/// - A leading (or embedded) ID3v2 tag is skipped and reported.
/// - After bad data the scanner resynchronises on the syncword; a candidate header found while
///   searching is accepted only when the next frame's fixed header follows it (or the stream ends
///   there), so stray `0xFFF` patterns in garbage do not become frames. The skipped run is reported
///   with its offset, length and the first error.
/// - ``finish()`` reports a frame cut short by the end of the data as ``ADTSTruncation``, after every
///   complete frame before it.
/// - In a protected frame with several raw data blocks the header CRC is verified (a header that
///   fails it is treated as lost sync).
///
/// The outcome never depends on where the chunks were cut: the scanner waits for more data rather
/// than guessing. It holds at most one frame (8191 bytes) plus a few bytes of lookahead beyond what a
/// single `append` brings; frames are slices of the appended data, not copies.
public struct ADTSFrameScanner: Sendable {
    private var buffer: [UInt8] = []
    private var position = 0
    private var bufferStreamOffset = 0
    private var synchronized = true
    private var pendingSkip: ADTSSkippedBytes?
    private var pendingTag: ADTSSkippedBytes?
    private var tagBytesToSkip = 0
    private var nextFrameIndex = 0

    /// Whether the header CRC of protected multi-block frames is verified.
    public var verifiesHeaderCRC: Bool

    /// Creates a scanner at the start of a stream.
    /// - Parameter verifiesHeaderCRC: verify `crc_check` of protected multi-block frames (default `true`).
    public init(verifiesHeaderCRC: Bool = true) {
        self.verifiesHeaderCRC = verifiesHeaderCRC
    }

    /// The number of bytes appended so far.
    public var streamLength: Int { bufferStreamOffset + buffer.count }

    /// Scans a whole buffer.
    /// - Parameter bytes: the complete stream.
    /// - Returns: the frames, the skipped runs and the truncated tail, if any.
    public static func scan(_ bytes: [UInt8]) -> ADTSScanResult {
        var scanner = ADTSFrameScanner()
        var events = scanner.append(bytes)
        events += scanner.finish()
        return ADTSScanResult(events: events)
    }

    /// Adds the next piece of the stream.
    /// - Parameter chunk: bytes that follow those appended before; any length, cut anywhere.
    /// - Returns: the frames and skipped runs that are now certain, in stream order.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) -> [ADTSScanEvent] where Bytes.Element == UInt8 {
        if position >= buffer.count {
            bufferStreamOffset += buffer.count
            buffer = Array(chunk)
        } else {
            var joined = [UInt8]()
            joined.reserveCapacity(buffer.count - position + chunk.count)
            joined.append(contentsOf: buffer[position...])
            joined.append(contentsOf: chunk)
            bufferStreamOffset += position
            buffer = joined
        }
        position = 0
        return process(atEnd: false)
    }

    /// Ends the stream: reports what is left — a truncated last frame or trailing garbage.
    /// - Returns: the remaining events.
    public mutating func finish() -> [ADTSScanEvent] {
        let events = process(atEnd: true)
        bufferStreamOffset += buffer.count
        buffer = []
        position = 0
        synchronized = true
        return events
    }

    // MARK: - The scan

    private enum TagProbe { case tag(length: Int), needMoreData, none }

    private mutating func process(atEnd: Bool) -> [ADTSScanEvent] {
        var events: [ADTSScanEvent] = []
        scanning: while true {
            if tagBytesToSkip > 0 {
                let count = min(tagBytesToSkip, buffer.count - position)
                position += count
                tagBytesToSkip -= count
                pendingTag?.count += count
                if tagBytesToSkip > 0 && !atEnd { break scanning }
                if let tag = pendingTag { events.append(.skipped(tag)) }
                pendingTag = nil
                tagBytesToSkip = 0
            }
            let start = position
            let available = buffer.count - start
            if available == 0 { break scanning }
            let streamOffset = bufferStreamOffset + start

            switch probeTag(at: start, atEnd: atEnd) {
            case let .tag(length):
                flushSkip(into: &events)
                pendingTag = ADTSSkippedBytes(byteOffset: streamOffset, count: 0, reason: .id3v2Tag)
                tagBytesToSkip = length
                synchronized = true
                continue scanning
            case .needMoreData:
                break scanning
            case .none:
                break
            }

            let header: ADTSHeader
            do throws(ADTSError) {
                header = try ADTSHeader.parse(buffer[start...], byteOffset: streamOffset)
                if verifiesHeaderCRC {
                    do {
                        try header.verifyHeaderCRC()
                    } catch var error {
                        error.byteOffset += streamOffset
                        throw error
                    }
                }
            } catch {
                if case .truncated = error.reason {
                    if !atEnd { break scanning }
                    if synchronized {
                        flushSkip(into: &events)
                        events.append(.truncated(ADTSTruncation(frameIndex: nextFrameIndex, byteOffset: streamOffset,
                                                                needed: neededHeaderLength(error), available: available,
                                                                header: nil)))
                        position = buffer.count
                        break scanning
                    }
                }
                loseSync(at: start, error: error)
                continue scanning
            }

            if header.frameLength > available {
                if !atEnd { break scanning }
                if synchronized {
                    flushSkip(into: &events)
                    events.append(.truncated(ADTSTruncation(frameIndex: nextFrameIndex, byteOffset: streamOffset,
                                                            needed: header.frameLength, available: available,
                                                            header: header)))
                    position = buffer.count
                    break scanning
                }
                loseSync(at: start, error: ADTSError(byteOffset: streamOffset, field: "adts_frame",
                                                     reason: .truncated(needed: header.frameLength, available: available)))
                continue scanning
            }

            if !synchronized {
                switch confirmation(after: header, at: start + header.frameLength, atEnd: atEnd) {
                case .needMoreData:
                    break scanning
                case .rejected:
                    loseSync(at: start, error: ADTSError(byteOffset: streamOffset + header.frameLength, field: "syncword",
                                                         reason: .badSyncword(found: nextSyncBits(at: start + header.frameLength))))
                    continue scanning
                case .confirmed:
                    break
                }
            }

            flushSkip(into: &events)
            let end = start + header.frameLength
            // The header was parsed from these bytes and `frameLength` ≤ available, so this cannot fail.
            if let frame = try? ADTSFrame(header: header, bytes: buffer[start..<end], byteOffset: streamOffset,
                                          index: nextFrameIndex) {
                events.append(.frame(frame))
                nextFrameIndex += 1
            }
            position = end
            synchronized = true
        }
        if atEnd {
            if position < buffer.count {
                // Only reachable when waiting on lookahead that will never come; treat as garbage.
                let start = position
                loseSync(at: start, error: ADTSError(byteOffset: bufferStreamOffset + start, field: "adts_frame",
                                                     reason: .truncated(needed: ADTSHeader.minimumLength, available: buffer.count - start)),
                         toEnd: true)
            }
            flushSkip(into: &events)
        }
        return events
    }

    private func neededHeaderLength(_ error: ADTSError) -> Int {
        if case let .truncated(needed, _) = error.reason { return needed }
        return ADTSHeader.minimumLength
    }

    /// Marks the byte at `start` as garbage and moves to the next byte that could start a frame or a tag.
    private mutating func loseSync(at start: Int, error: ADTSError, toEnd: Bool = false) {
        synchronized = false
        var next = buffer.count
        if !toEnd, start + 1 < buffer.count {
            next = buffer[(start + 1)...].firstIndex { $0 == 0xFF || $0 == 0x49 } ?? buffer.count
        }
        if pendingSkip == nil {
            pendingSkip = ADTSSkippedBytes(byteOffset: bufferStreamOffset + start, count: 0, reason: .lostSync(firstError: error))
        }
        pendingSkip?.count += next - start
        position = next
    }

    private mutating func flushSkip(into events: inout [ADTSScanEvent]) {
        if let skip = pendingSkip { events.append(.skipped(skip)) }
        pendingSkip = nil
    }

    /// ID3v2 tag header (ID3v2.4.0 §3.1): "ID3", version (not 0xFF), revision (not 0xFF), flags, and a
    /// four-byte synchsafe size (7 bits per byte) that excludes the 10-byte header and the footer.
    private func probeTag(at start: Int, atEnd: Bool) -> TagProbe {
        let available = buffer.count - start
        guard buffer[start] == 0x49 else { return .none }                          // "I"
        if available > 1 && buffer[start + 1] != 0x44 { return .none }             // "D"
        if available > 2 && buffer[start + 2] != 0x33 { return .none }             // "3"
        let length = 10
        if available < length { return atEnd ? .none : .needMoreData }
        guard buffer[start + 3] != 0xFF, buffer[start + 4] != 0xFF else { return .none }
        var size = 0
        for offset in 6..<10 {
            let byte = buffer[start + offset]
            guard byte < 0x80 else { return .none }
            size = size << 7 | Int(byte)
        }
        let footer = buffer[start + 5] & 0x10 != 0 ? 10 : 0
        return .tag(length: length + size + footer)
    }

    private enum Confirmation { case confirmed, rejected, needMoreData }

    /// Whether a frame candidate found while searching is followed by another frame with the same fixed
    /// header (syncword, ID, layer, profile, sampling frequency index, channel configuration), or by an
    /// ID3v2 tag, or by the end of the stream.
    private func confirmation(after header: ADTSHeader, at next: Int, atEnd: Bool) -> Confirmation {
        let lookahead = 4
        let available = buffer.count - next
        if available <= 0 { return atEnd ? .confirmed : .needMoreData }
        // Probe with the real `atEnd`: a cut inside the tag's 10-byte header ("ID3" and fewer than 7 more
        // bytes) must wait for the rest, not fall through to the header comparison and be rejected
        // where the whole buffer would have confirmed it.
        switch probeTag(at: next, atEnd: atEnd) {
        case .tag: return .confirmed
        case .needMoreData: return .needMoreData
        case .none: break
        }
        if available < lookahead { return atEnd ? .confirmed : .needMoreData }
        let start = next - header.frameLength
        let same = buffer[next] == 0xFF
            && buffer[next + 1] & 0xF6 == buffer[start + 1] & 0xF6
            && buffer[next + 2] & 0xFD == buffer[start + 2] & 0xFD
            && buffer[next + 3] & 0xC0 == buffer[start + 3] & 0xC0
        return same ? .confirmed : .rejected
    }

    private func nextSyncBits(at index: Int) -> UInt16 {
        guard index + 1 < buffer.count else { return 0 }
        return UInt16(buffer[index]) << 4 | UInt16(buffer[index + 1] >> 4)
    }
}

import Bitstream

/// Reads an FLV file tag by tag from any ``ByteSource`` (a file, a pipe, memory), with bounded memory:
/// tags are views into 1 MiB read blocks (no copy per tag), a tag larger than ``FLVReaderLimits`` is refused
/// before it is read, and a cut-off file ends in ``FLVReadEvent/truncated(offset:field:)``.
///
/// ```swift
/// var reader = try FLVReader(source: try FileByteSource(path: "in.flv"))
/// while case let .tag(tag, _) = try reader.next() {
///     if tag.type == .video { let body = try tag.videoBody(); … }
/// }
/// ```
///
/// Checks (FLV specification v10.1, E.2–E.4.1): the signature and version, `DataOffset`, the `Filter` bit
/// (encrypted tags are refused), and each `PreviousTagSize` (0 is accepted, as some live encoders write it).
public struct FLVReader<Source: ByteSource> {
    /// The source.
    public private(set) var source: Source
    /// The file header.
    public private(set) var header = FLVHeader(hasAudio: false, hasVideo: false)
    /// The caps.
    public let limits: FLVReaderLimits
    /// The offset in the file of the next byte to parse.
    public private(set) var offset: Int

    private var block: FLVBlock
    private var start = 0
    private var end = 0
    private var sourceEnded = false
    private var previousTagSize: UInt32 = 0
    private var finished = false

    /// Opens a stream: reads and checks the header and `PreviousTagSize0`.
    /// - Parameters:
    ///   - source: the bytes.
    ///   - limits: the caps.
    /// - Throws: ``FLVError`` for a source that is no FLV file (or too short to tell), or an `io` error.
    public init(source: Source, limits: FLVReaderLimits = .default) throws(FLVError) {
        self.source = source
        self.limits = limits
        block = FLVBlock(capacity: limits.blockByteCount)
        offset = 0
        guard try Self.fill(&self, count: FLVHeader.byteCount) else {
            let available = end - start
            _ = try FLVHeader(parsing: block.view(start..<end))  // names the bad field if it can
            throw FLVError(.truncated(field: "header"), offset: available)
        }
        let head = try FLVHeader(parsing: block.view(start..<(start + FLVHeader.byteCount)))
        header = head
        start += FLVHeader.byteCount
        offset = FLVHeader.byteCount
        // A longer header (DataOffset > 9) is skipped.
        let extra = Int(head.dataOffset) - FLVHeader.byteCount
        if extra > 0 {
            guard extra <= limits.maximumTagByteCount else {
                throw FLVError(.invalidDataOffset(head.dataOffset), offset: 5)
            }
            guard try Self.fill(&self, count: extra) else { throw FLVError(.truncated(field: "header"), offset: offset) }
            start += extra
            offset += extra
        }
        guard try Self.fill(&self, count: 4) else { throw FLVError(.truncated(field: "PreviousTagSize0"), offset: offset) }
        start += 4
        offset += 4
    }

    /// Reads the next tag.
    /// - Returns: the tag, ``FLVReadEvent/end``, or ``FLVReadEvent/truncated(offset:field:)`` (then `end` forever).
    /// - Throws: ``FLVError`` (offset in the file): ``FLVError/Reason/tagTooLarge(byteCount:limit:)``,
    ///   ``FLVError/Reason/encryptedTag``, ``FLVError/Reason/previousTagSizeMismatch(expected:found:)``, `io`.
    public mutating func next() throws(FLVError) -> FLVReadEvent {
        guard !finished else { return .end }
        let tagOffset = offset
        guard try Self.fill(&self, count: FLVTag.headerByteCount) else {
            finished = true
            return end == start ? .end : .truncated(offset: tagOffset, field: "tag header")
        }
        let header = try FLVTag.Header(parsing: block.view(start..<(start + FLVTag.headerByteCount)))
        guard !header.isEncrypted else { throw FLVError(.encryptedTag, offset: tagOffset) }
        guard header.dataSize <= limits.maximumTagByteCount else {
            throw FLVError(.tagTooLarge(byteCount: header.dataSize, limit: limits.maximumTagByteCount), offset: tagOffset + 1)
        }
        let total = FLVTag.headerByteCount + header.dataSize + 4
        guard try Self.fill(&self, count: total) else {
            finished = true
            let bodyComplete = end - start >= FLVTag.headerByteCount + header.dataSize
            return .truncated(offset: tagOffset, field: bodyComplete ? "PreviousTagSize" : "\(header.type) tag body")
        }
        let bodyStart = start + FLVTag.headerByteCount
        let body = block.view(bodyStart..<(bodyStart + header.dataSize))
        let sizeView = block.view((bodyStart + header.dataSize)..<(bodyStart + header.dataSize + 4))
        let found = sizeView.getInteger(at: 0, as: UInt32.self) ?? 0
        let expected = UInt32(FLVTag.headerByteCount + header.dataSize)
        guard found == expected || found == 0 else {
            throw FLVError(.previousTagSizeMismatch(expected: expected, found: found), offset: tagOffset + total - 4)
        }
        start += total
        offset += total
        return .tag(FLVTag(type: header.type, timestamp: header.timestamp, streamID: header.streamID, body: body), offset: tagOffset)
    }

    /// Makes at least `count` bytes readable from `start`, moving to a new block when the current one has no
    /// room; returns `false` when the source ends first (what was read stays readable).
    private static func fill(_ reader: inout FLVReader, count: Int) throws(FLVError) -> Bool {
        if reader.end - reader.start >= count { return true }
        if reader.block.capacity - reader.start < count {
            // The bytes not yet handed out move to a new block; views of the old one keep it alive.
            let pending = reader.end - reader.start
            let fresh = FLVBlock(capacity: max(reader.limits.blockByteCount, count))
            fresh.pointer.copyMemory(from: reader.block.pointer + reader.start, byteCount: pending)
            reader.block = fresh
            reader.start = 0
            reader.end = pending
        }
        while reader.end - reader.start < count, !reader.sourceEnded {
            let room = UnsafeMutableRawBufferPointer(start: reader.block.pointer + reader.end, count: reader.block.capacity - reader.end)
            let read: Int
            do { read = try reader.source.read(into: room) } catch { throw FLVError(.io(error), offset: reader.offset) }
            if read == 0 { reader.sourceEnded = true } else { reader.end += read }
        }
        return reader.end - reader.start >= count
    }
}

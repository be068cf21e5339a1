/// Splits an Annex B byte stream that arrives in chunks split anywhere (a socket, a pipe, a live
/// encoder, a file read in blocks) into whole NAL units.
///
/// A NAL unit is complete only when the next start code has been seen, so the last one is held back
/// until more data arrives or ``finish(_:)`` is called. Start codes split across chunks (`00 | 00 01`)
/// are found. Each NAL unit is handed out once, without start code and without trailing zero bytes.
///
/// ``append(_:_:)`` hands out each NAL unit as a ``ByteView`` into the scanner's buffer: nothing is
/// allocated per NAL unit. The buffer is written only past the bytes already handed out, so views stay
/// valid (and unchanged) for as long as they are kept; it is compacted, rarely, only while no view
/// holds it, and replaced by a new one otherwise. ``append(_:)`` is the copying form: one array per unit.
/// The forms whose `body` takes two arguments also hand out each unit's ``AnnexBNALUnitPosition``
/// (its offset in the stream and where its start code begins).
public struct AnnexBStreamScanner: Sendable {
    /// The bytes: `[readIndex, writeIndex)` is pending (the current, incomplete NAL unit from its first
    /// byte after the start code, or data before the first start code); after `writeIndex` is free room.
    private var storage: ByteStorage?
    /// Shared by copies of this scanner only (not by views): a copy must not write into the same buffer.
    private var writerToken = WriterToken()
    private var readIndex = 0
    private var writeIndex = 0
    /// Whether a start code has been seen, so the pending bytes are the inside of a NAL unit.
    private var insideNALUnit = false
    /// The length of the pending unit's start code (4 when a zero byte preceded `00 00 01`).
    private var pendingStartCodeLength = 3
    /// Whether the pending bytes are the rest of a dropped unit (not leading bytes) until the next start code.
    private var skippingUnit = false
    /// The bytes appended since the start of the stream: the stream offset of `writeIndex`.
    private var appendedByteCount = 0
    /// Where to resume the start-code search, relative to `readIndex` (earlier bytes are known to hold none).
    private var searchFrom = 0
    /// Bytes that arrived before the first start code (not part of any NAL unit).
    public private(set) var discardedLeadingBytes = 0
    /// The largest NAL unit accepted; a longer one is cut off and reported by ``oversizedUnits``.
    public let maximumNALUnitSize: Int
    /// How many NAL units were longer than ``maximumNALUnitSize`` and dropped.
    public private(set) var oversizedUnits = 0

    /// The smallest buffer the scanner allocates.
    private static let minimumCapacity = 64 << 10

    private final class WriterToken: Sendable {}

    /// Creates a scanner.
    /// - Parameter maximumNALUnitSize: a cap that keeps hostile input from exhausting memory
    ///   (default 64 MiB, far above any conforming NAL unit at level 6.2).
    public init(maximumNALUnitSize: Int = 64 << 20) {
        self.maximumNALUnitSize = max(0, maximumNALUnitSize)
    }

    /// The number of bytes held back: the NAL unit in progress (or data before the first start code).
    public var pendingByteCount: Int { writeIndex - readIndex }

    /// Where the NAL unit in progress (the one after the latest start code) begins, or `nil` when no
    /// start code has been seen since the stream began or since ``dropPendingBytes()``.
    public var pendingUnitPosition: AnnexBNALUnitPosition? {
        guard insideNALUnit else { return nil }
        let offset = appendedByteCount - pendingByteCount
        return AnnexBNALUnitPosition(byteOffset: offset, startCodeOffset: offset - pendingStartCodeLength)
    }

    /// Drops the bytes held back — the NAL unit in progress, or data before the first start code — and
    /// goes on at the next start code (one split at the edge is still found). For a caller with its own
    /// size policy; dropped data before the first start code counts in ``discardedLeadingBytes``.
    public mutating func dropPendingBytes() {
        guard let storage else { return }
        let kept = Swift.min(3, pendingByteCount)
        let dropped = UnsafeRawBufferPointer(start: storage.pointer + readIndex, count: pendingByteCount - kept)
        if insideNALUnit || skippingUnit {
            skippingUnit = true
        } else {
            discardedLeadingBytes += Self.countNonZero(dropped)
        }
        readIndex = writeIndex - kept
        insideNALUnit = false
        searchFrom = 0
    }

    /// Adds a chunk of the stream and calls `body` with every NAL unit it completed, as views into the
    /// scanner's buffer (no copies, no allocation per unit).
    /// - Parameters:
    ///   - chunk: the next bytes of the stream, of any length.
    ///   - body: receives each completed NAL unit, in order; the view may be kept.
    /// - Throws: what `body` throws. The unit it threw for counts as handed out; call again to go on.
    public mutating func append<Failure: Error>(
        _ chunk: UnsafeRawBufferPointer, _ body: (ByteView) throws(Failure) -> Void
    ) throws(Failure) {
        write(chunk)
        try scan { (unit, _) throws(Failure) in try body(unit) }
    }

    /// Adds a chunk of the stream and calls `body` with every NAL unit it completed, as a view into the
    /// scanner's buffer, and where the unit lies in the stream.
    /// - Parameters:
    ///   - chunk: the next bytes of the stream, of any length.
    ///   - body: receives each completed NAL unit and its position, in order; the view may be kept.
    /// - Throws: what `body` throws. The unit it threw for counts as handed out; call again to go on.
    public mutating func append<Failure: Error>(
        _ chunk: UnsafeRawBufferPointer, _ body: (ByteView, AnnexBNALUnitPosition) throws(Failure) -> Void
    ) throws(Failure) {
        write(chunk)
        try scan(body)
    }

    /// Adds a chunk of the stream and calls `body` with every NAL unit it completed, as views into the
    /// scanner's buffer (no copies, no allocation per unit).
    /// - Parameters:
    ///   - chunk: the next bytes of the stream, of any length (arrays, slices and views are copied into
    ///     the buffer in one block).
    ///   - body: receives each completed NAL unit, in order; the view may be kept.
    /// - Throws: what `body` throws.
    public mutating func append<Bytes: Sequence, Failure: Error>(
        _ chunk: Bytes, _ body: (ByteView) throws(Failure) -> Void
    ) throws(Failure) where Bytes.Element == UInt8 {
        let copied: Void? = chunk.withContiguousStorageIfAvailable { write(UnsafeRawBufferPointer($0)) }
        if copied == nil {
            Array(chunk).withUnsafeBytes { write($0) }
        }
        try scan { (unit, _) throws(Failure) in try body(unit) }
    }

    /// Lets `fill` write the next bytes of the stream straight into the scanner's buffer (for example with
    /// `read(2)` from a file or socket: no intermediate chunk, no copy), then calls `body` with every NAL
    /// unit they completed, as views.
    /// - Parameters:
    ///   - maximumByteCount: the room offered to `fill`, in bytes.
    ///   - fill: writes up to `buffer.count` bytes at the start of `buffer` and returns how many
    ///     (0 at the end of the stream); values outside 0...`buffer.count` are clamped.
    ///   - body: receives each completed NAL unit, in order; the view may be kept.
    /// - Returns: the number of bytes `fill` wrote.
    /// - Throws: what `fill` throws (then nothing was added).
    @discardableResult
    public mutating func append<Failure: Error>(
        readingUpTo maximumByteCount: Int,
        using fill: (_ buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int,
        _ body: (ByteView) -> Void
    ) throws(Failure) -> Int {
        try append(readingUpTo: maximumByteCount, using: fill) { unit, _ in body(unit) }
    }

    /// Lets `fill` write the next bytes of the stream straight into the scanner's buffer, then calls
    /// `body` with every NAL unit they completed, as a view, and where the unit lies in the stream.
    /// - Parameters:
    ///   - maximumByteCount: the room offered to `fill`, in bytes.
    ///   - fill: writes up to `buffer.count` bytes at the start of `buffer` and returns how many
    ///     (0 at the end of the stream); values outside 0...`buffer.count` are clamped.
    ///   - body: receives each completed NAL unit and its position, in order; the view may be kept.
    /// - Returns: the number of bytes `fill` wrote.
    /// - Throws: what `fill` throws (then nothing was added).
    @discardableResult
    public mutating func append<Failure: Error>(
        readingUpTo maximumByteCount: Int,
        using fill: (_ buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int,
        _ body: (ByteView, AnnexBNALUnitPosition) -> Void
    ) throws(Failure) -> Int {
        let room = Swift.max(0, maximumByteCount)
        let storage = makeRoom(for: room)
        let written = Swift.min(Swift.max(0, try fill(UnsafeMutableRawBufferPointer(start: storage.pointer + writeIndex, count: room))), room)
        writeIndex += written
        appendedByteCount += written
        scan(body)
        return written
    }

    /// Adds a chunk of the stream and returns every NAL unit it completed, each copied into its own array.
    /// - Parameter chunk: the next bytes of the stream, of any length.
    /// - Returns: the complete NAL units, in order.
    public mutating func append<Bytes: Sequence>(_ chunk: Bytes) -> [[UInt8]] where Bytes.Element == UInt8 {
        var units: [[UInt8]] = []
        append(chunk) { units.append(Array($0)) }
        return units
    }

    /// Ends the stream and calls `body` with the last NAL unit, if there is one; the scanner is then
    /// empty and ready for a new stream.
    /// - Parameter body: receives the held-back NAL unit (a view that may be kept).
    /// - Throws: what `body` throws.
    public mutating func finish<Failure: Error>(_ body: (ByteView) throws(Failure) -> Void) throws(Failure) {
        if let (unit, _) = takeLastUnit() { try body(unit) }
    }

    /// Ends the stream and calls `body` with the last NAL unit, if there is one, and its position; the
    /// scanner is then empty and ready for a new stream (whose offsets start at 0).
    /// - Parameter body: receives the held-back NAL unit (a view that may be kept) and its position.
    /// - Throws: what `body` throws.
    public mutating func finish<Failure: Error>(
        _ body: (ByteView, AnnexBNALUnitPosition) throws(Failure) -> Void
    ) throws(Failure) {
        if let (unit, position) = takeLastUnit() { try body(unit, position) }
    }

    /// Ends the stream and returns the last NAL unit, if any, as an array.
    /// - Returns: the held-back NAL unit, or `nil` if there is none.
    public mutating func finish() -> [UInt8]? {
        takeLastUnit().map { Array($0.unit) }
    }

    // MARK: - Buffer

    /// Copies `chunk` after the pending bytes, making room first.
    private mutating func write(_ chunk: UnsafeRawBufferPointer) {
        guard let source = chunk.baseAddress, !chunk.isEmpty else { return }
        let buffer = makeRoom(for: chunk.count)
        (buffer.pointer + writeIndex).copyMemory(from: source, byteCount: chunk.count)
        writeIndex += chunk.count
        appendedByteCount += chunk.count
    }

    /// Returns a buffer with room for `count` more bytes after `writeIndex`, which this scanner alone
    /// may write: the same one when it has room, the same one compacted when no view holds it and
    /// compaction frees at least half of it, else a new one holding the pending bytes.
    private mutating func makeRoom(for count: Int) -> ByteStorage {
        let copied = !isKnownUniquelyReferenced(&writerToken)
        if copied { writerToken = WriterToken() }
        let pending = writeIndex - readIndex
        if !copied, let capacity = storage?.capacity {
            if writeIndex + count <= capacity, let storage { return storage }
            // No view and no copy holds the buffer: move the pending bytes to its start.
            if readIndex >= capacity / 2, pending + count <= capacity,
               isKnownUniquelyReferenced(&storage), let storage {
                storage.pointer.copyMemory(from: storage.pointer + readIndex, byteCount: pending)
                readIndex = 0
                writeIndex = pending
                return storage
            }
        }
        let old = storage
        let capacity = Swift.max(Self.minimumCapacity, 2 * (pending + count), old?.capacity ?? 0)
        let fresh = ByteStorage(capacity: capacity)
        if let old, pending > 0 { fresh.pointer.copyMemory(from: old.pointer + readIndex, byteCount: pending) }
        storage = fresh
        readIndex = 0
        writeIndex = pending
        return fresh
    }

    // MARK: - Scanning

    /// Hands out every NAL unit that a start code in the pending bytes completes.
    private mutating func scan<Failure: Error>(
        _ body: (ByteView, AnnexBNALUnitPosition) throws(Failure) -> Void
    ) throws(Failure) {
        guard let storage else { return }
        while true {
            let pending = UnsafeRawBufferPointer(start: storage.pointer + readIndex, count: writeIndex - readIndex)
            guard let start = AnnexB.nextStartCode(in: pending, from: searchFrom) else {
                searchFrom = Swift.max(0, pending.count - 2)
                if pending.count > maximumNALUnitSize + 2 {
                    if insideNALUnit { oversizedUnits += 1 }
                    dropPendingBytes()
                }
                return
            }
            let wasInside = insideNALUnit
            let unitStart = readIndex
            let unitStartCodeLength = pendingStartCodeLength
            if !wasInside {
                if !skippingUnit {
                    discardedLeadingBytes += Self.countNonZero(UnsafeRawBufferPointer(rebasing: pending[0..<start]))
                }
                skippingUnit = false
                insideNALUnit = true
            }
            // A zero byte just before `00 00 01` is the start code's `zero_byte` (B.1.2). At `start == 0`
            // the byte before, if any, is the `01` of a start code (or the stream's start).
            pendingStartCodeLength = start > 0 && pending[start - 1] == 0 ? 4 : 3
            readIndex += start + 3
            searchFrom = 0
            if wasInside, let unit = trimmedUnit(storage, unitStart..<(unitStart + start)) {
                let offset = appendedByteCount - (writeIndex - unitStart)
                try body(unit, AnnexBNALUnitPosition(byteOffset: offset, startCodeOffset: offset - unitStartCodeLength))
            }
        }
    }

    /// The pending NAL unit at the end of the stream; empties the scanner.
    private mutating func takeLastUnit() -> (unit: ByteView, position: AnnexBNALUnitPosition)? {
        let position = pendingUnitPosition
        defer {
            readIndex = 0
            writeIndex = 0
            appendedByteCount = 0
            insideNALUnit = false
            skippingUnit = false
            pendingStartCodeLength = 3
            searchFrom = 0
        }
        guard let storage else { return nil }
        guard insideNALUnit, let position else {
            if !skippingUnit {
                discardedLeadingBytes += Self.countNonZero(
                    UnsafeRawBufferPointer(start: storage.pointer + readIndex, count: writeIndex - readIndex))
            }
            return nil
        }
        return trimmedUnit(storage, readIndex..<writeIndex).map { ($0, position) }
    }

    /// A view of the NAL unit in `range` without its trailing zero bytes, or `nil` if it is empty or
    /// over the size cap (then counted in ``oversizedUnits``).
    private mutating func trimmedUnit(_ storage: ByteStorage, _ range: Range<Int>) -> ByteView? {
        var end = range.upperBound
        while end > range.lowerBound && storage.pointer.load(fromByteOffset: end - 1, as: UInt8.self) == 0 { end -= 1 }
        guard end > range.lowerBound else { return nil }
        guard end - range.lowerBound <= maximumNALUnitSize else { oversizedUnits += 1; return nil }
        return storage.view(range.lowerBound..<end)
    }

    private static func countNonZero(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for byte in bytes where byte != 0 { count += 1 }
        return count
    }
}

/// Where the NAL units that ``Bitstream/AnnexBStreamScanner`` hands out lie in the stream.
///
/// The scanner returns each NAL unit's bytes without its start code or trailing zeros, and not where
/// it was. The locator walks, beside it, only the bytes *between* NAL units (zeros and start codes —
/// a few bytes per unit) and the bytes before the first start code, with the same rules as the
/// scanner: a start code is `00 00 01`, a unit is what lies between two start codes less its trailing
/// zeros, and a unit of zeros only is no unit. So for every unit the scanner returns, in order, the
/// locator knows its header offset and where its start code (3 or 4 bytes) begins.
struct NALUnitLocator {
    /// Where a NAL unit starts.
    struct Position: Equatable {
        /// The offset of its header byte (after the start code).
        var header: Int
        /// The offset of its start code: 4 bytes before the header when a zero byte precedes
        /// `00 00 01`, else 3 (H.264/H.265 B.1.2: the `zero_byte` belongs to the unit it introduces).
        var startCode: Int
    }

    /// The next stream offset to examine.
    private(set) var scanPosition = 0
    /// Zero bytes seen in a row just before `scanPosition`.
    private var zeroRun = 0
    /// The unit after the latest start code, while only zeros have followed it.
    private(set) var candidate: Position?
    /// The start of the next unit the scanner will return, once its first non-zero byte was seen.
    private(set) var next: Position?
    /// Whether a start code has been seen since the start (or the last ``restart(at:trailingZeros:)``).
    private(set) var hasSeenStartCode = false
    /// Non-zero bytes before the first start code of the stream (not part of any NAL unit).
    private(set) var leadingGarbageCount = 0
    private var beforeFirstStartCode = true

    /// Examines the bytes of `chunk` from ``scanPosition`` on until the start of the next unit is known.
    /// - Parameters:
    ///   - chunk: bytes the scanner was given.
    ///   - chunkOffset: the stream offset of `chunk`'s first byte.
    mutating func locateNext(in chunk: UnsafeRawBufferPointer, at chunkOffset: Int) {
        guard next == nil else { return }
        if scanPosition < chunkOffset {
            // Bytes after a unit that ended in an earlier chunk: only zeros (a start code there would
            // have ended that unit in its own chunk).
            zeroRun += chunkOffset - scanPosition
            scanPosition = chunkOffset
        }
        let end = chunkOffset + chunk.count
        while scanPosition < end {
            let byte = chunk[scanPosition - chunkOffset]
            scanPosition += 1
            if byte == 0 {
                zeroRun += 1
                continue
            }
            if byte == 1 && zeroRun >= 2 {
                candidate = Position(header: scanPosition, startCode: scanPosition - (zeroRun >= 3 ? 4 : 3))
                hasSeenStartCode = true
                beforeFirstStartCode = false
                zeroRun = 0
                continue
            }
            zeroRun = 0
            if let found = candidate {
                next = found
                candidate = nil
                return
            }
            if beforeFirstStartCode { leadingGarbageCount += 1 }
        }
    }

    /// Moves past the unit at ``next``, `size` bytes long.
    /// - Parameter size: the unit's size as the scanner returned it.
    mutating func consume(size: Int) {
        guard let unit = next else { return }
        scanPosition = max(scanPosition, unit.header + size)
        zeroRun = 0
        next = nil
    }

    /// Starts over after the scanner was replaced: nothing before `offset` is a start code, and the
    /// last bytes given were `trailingZeros` zeros.
    /// - Parameters:
    ///   - offset: the stream offset of the next byte.
    ///   - trailingZeros: how many zero bytes came just before it (0 to 2).
    mutating func restart(at offset: Int, trailingZeros: Int) {
        scanPosition = offset
        zeroRun = trailingZeros
        candidate = nil
        next = nil
        hasSeenStartCode = false
    }
}

/// Splits an Annex B byte stream that arrives in chunks split anywhere (a socket, a pipe, a live
/// encoder) into whole NAL units.
///
/// A NAL unit is complete only when the next start code has been seen, so the last one is held back
/// until more data arrives or ``finish()`` is called. Start codes split across chunks (`00 | 00 01`)
/// are found. Each NAL unit is handed out once, without start code and without trailing zero bytes.
public struct AnnexBStreamScanner: Sendable {
    /// Pending bytes: the current (incomplete) NAL unit, from its first byte after the start code,
    /// or data before the first start code.
    private var pending: [UInt8] = []
    /// Whether a start code has been seen, so `pending` is the inside of a NAL unit.
    private var insideNALUnit = false
    /// Where to resume the start-code search in `pending` (earlier bytes are known to hold none).
    private var searchFrom = 0
    /// Bytes that arrived before the first start code (not part of any NAL unit).
    public private(set) var discardedLeadingBytes = 0
    /// The largest NAL unit accepted; a longer one is cut off and reported by ``oversizedUnits``.
    public let maximumNALUnitSize: Int
    /// How many NAL units were longer than ``maximumNALUnitSize`` and dropped.
    public private(set) var oversizedUnits = 0

    /// Creates a scanner.
    /// - Parameter maximumNALUnitSize: a cap that keeps hostile input from exhausting memory
    ///   (default 64 MiB, far above any conforming NAL unit at level 6.2).
    public init(maximumNALUnitSize: Int = 64 << 20) {
        self.maximumNALUnitSize = maximumNALUnitSize
    }

    /// Adds a chunk of the stream and returns every NAL unit it completed.
    /// - Parameter chunk: the next bytes of the stream, of any length.
    /// - Returns: the complete NAL units, in order.
    public mutating func append<Bytes: Sequence>(_ chunk: Bytes) -> [[UInt8]] where Bytes.Element == UInt8 {
        pending.append(contentsOf: chunk)
        var units: [[UInt8]] = []
        while true {
            let found: Int? = pending.withUnsafeBytes { AnnexB.nextStartCode(in: $0, from: searchFrom) }
            guard let start = found else {
                searchFrom = max(0, pending.count - 2)
                if pending.count > maximumNALUnitSize + 2 {
                    // Keep the tail so a start code split at the edge is still found.
                    if insideNALUnit { oversizedUnits += 1 } else { discardedLeadingBytes += countNonZero(pending.dropLast(2)) }
                    pending.removeFirst(pending.count - 2)
                    insideNALUnit = false
                    searchFrom = 0
                }
                return units
            }
            if insideNALUnit {
                if let unit = trimmedUnit(pending[0..<start]) { units.append(unit) }
            } else {
                discardedLeadingBytes += countNonZero(pending[0..<start])
                insideNALUnit = true
            }
            pending.removeFirst(start + 3)
            searchFrom = 0
        }
    }

    /// Ends the stream and returns the last NAL unit, if any.
    /// - Returns: the held-back NAL unit, or `nil` if there is none.
    public mutating func finish() -> [UInt8]? {
        defer { pending = []; insideNALUnit = false; searchFrom = 0 }
        guard insideNALUnit else {
            discardedLeadingBytes += countNonZero(pending[...])
            return nil
        }
        return trimmedUnit(pending[...])
    }

    private mutating func trimmedUnit(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var end = bytes.endIndex
        while end > bytes.startIndex && bytes[end - 1] == 0 { end -= 1 }
        guard end > bytes.startIndex else { return nil }
        guard end - bytes.startIndex <= maximumNALUnitSize else { oversizedUnits += 1; return nil }
        return Array(bytes[bytes.startIndex..<end])
    }

    private func countNonZero(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
    }
}

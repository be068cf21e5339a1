#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte-stream format of ITU-T H.264 Annex B and H.265 Annex B: NAL units separated by start codes
/// (`00 00 01`, often written `00 00 00 01` — the extra zero is a `zero_byte`), with any number of
/// `leading_zero_8bits` before the first and `trailing_zero_8bits` after each NAL unit.
///
/// The scan is fast: it looks for the byte 0x01 with `memchr` (vectorised in the C library) and only
/// then checks the two zero bytes before it, so it touches most bytes once, in bulk. It returns ranges
/// into the caller's buffer, never copies.
public enum AnnexB {
    /// The 4-byte start code `00 00 00 01` that writers put before each NAL unit.
    public static let startCode: [UInt8] = [0, 0, 0, 1]

    /// Finds the NAL units in an Annex B byte stream (B.1.1 `byte_stream_nal_unit`).
    ///
    /// Each range covers one NAL unit from its header to its last non-zero byte: start codes,
    /// `leading_zero_8bits` and `trailing_zero_8bits` are excluded. Bytes before the first start code
    /// are not a NAL unit and are ignored (``leadingGarbageCount(in:)`` tells how many there were).
    /// - Parameter bytes: the byte stream.
    /// - Returns: the ranges of the NAL units, in stream order; empty ranges are dropped.
    public static func nalUnitRanges(in bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBytes { nalUnitRanges(in: $0) }
    }

    /// Finds the NAL units in an Annex B byte stream held in raw memory.
    /// - Parameter buffer: the byte stream.
    /// - Returns: the ranges of the NAL units, as offsets into `buffer`.
    public static func nalUnitRanges(in buffer: UnsafeRawBufferPointer) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(buffer.count / 1024 + 4)
        forEachNALUnit(in: buffer) { ranges.append($0) }
        return ranges
    }

    /// Calls `body` with the range of every NAL unit in `buffer`, in order, without allocating.
    /// - Parameters:
    ///   - buffer: the byte stream.
    ///   - body: receives each NAL unit's range (start code and trailing zeros excluded).
    @inlinable
    public static func forEachNALUnit(in buffer: UnsafeRawBufferPointer, _ body: (Range<Int>) throws -> Void) rethrows {
        guard let first = nextStartCode(in: buffer, from: 0) else { return }
        var payloadStart = first + 3
        while true {
            let next = nextStartCode(in: buffer, from: payloadStart)
            var end = next ?? buffer.count
            while end > payloadStart && buffer[end - 1] == 0 { end -= 1 }
            if end > payloadStart { try body(payloadStart..<end) }
            guard let found = next else { return }
            payloadStart = found + 3
        }
    }

    /// The number of bytes before the first start code that are not zero bytes: data that is not part
    /// of any NAL unit (for example the tail of a stream joined in the middle).
    /// - Parameter bytes: the byte stream.
    /// - Returns: the count of non-zero bytes before the first start code (all of them if there is none).
    public static func leadingGarbageCount(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { buffer in
            let end = nextStartCode(in: buffer, from: 0) ?? buffer.count
            var count = 0
            for index in 0..<end where buffer[index] != 0 { count += 1 }
            return count
        }
    }

    /// Finds the next three-byte start code prefix `00 00 01` at or after `start`.
    /// - Parameters:
    ///   - buffer: the bytes to search.
    ///   - start: the first offset a start code may begin at.
    /// - Returns: the offset of the first `00` of the prefix, or `nil` if there is none.
    @inlinable
    public static func nextStartCode(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = buffer.baseAddress, buffer.count >= 3 else { return nil }
        var position = start + 2  // where the 0x01 of a start code at `start` would be
        let count = buffer.count
        while position < count {
            guard let hit = memchr(base + position, 1, count - position) else { return nil }
            let index = base.distance(to: UnsafeRawPointer(hit))
            if index >= 2 && buffer[index - 1] == 0 && buffer[index - 2] == 0 && index - 2 >= start {
                return index - 2
            }
            position = index + 1
        }
        return nil
    }
}

import Bitstream

/// Reads the fixed fields of one box's payload with bounds checks: every read past the box's end is a
/// ``MP4ReadError/malformedBox(path:byteOffset:reason:)`` naming the field, the box path and the offset.
struct MP4FieldReader {
    let bytes: ByteView
    let path: String
    let end: Int
    private(set) var position: Int

    /// A reader of `header`'s payload.
    init(bytes: ByteView, header: MP4BoxHeader, path: String) {
        self.bytes = bytes
        self.path = path
        self.position = header.payloadRange.lowerBound
        self.end = header.payloadRange.upperBound
    }

    /// The bytes left in the box.
    var remaining: Int { end - position }

    func failure(_ reason: String, at offset: Int? = nil) -> MP4ReadError {
        .malformedBox(path: path, byteOffset: offset ?? position, reason: reason)
    }

    private mutating func take(_ count: Int, _ field: String) throws(MP4ReadError) -> Int {
        guard count <= remaining else {
            throw failure("\(field): needs \(count) bytes, the box has \(remaining) left")
        }
        defer { position += count }
        return position
    }

    mutating func u8(_ field: String) throws(MP4ReadError) -> UInt8 {
        let at = try take(1, field)
        return bytes.getByte(at: at) ?? 0
    }

    mutating func u16(_ field: String) throws(MP4ReadError) -> UInt16 {
        let at = try take(2, field)
        return bytes.getInteger(at: at, as: UInt16.self) ?? 0
    }

    mutating func u24(_ field: String) throws(MP4ReadError) -> UInt32 {
        let at = try take(3, field)
        return UInt32(bytes.getUnsignedBigEndian(at: at, byteCount: 3) ?? 0)
    }

    mutating func u32(_ field: String) throws(MP4ReadError) -> UInt32 {
        let at = try take(4, field)
        return bytes.getInteger(at: at, as: UInt32.self) ?? 0
    }

    mutating func i32(_ field: String) throws(MP4ReadError) -> Int32 {
        Int32(bitPattern: try u32(field))
    }

    mutating func u64(_ field: String) throws(MP4ReadError) -> UInt64 {
        let at = try take(8, field)
        return bytes.getInteger(at: at, as: UInt64.self) ?? 0
    }

    /// A 32-bit field in version 0, 64-bit in version 1 (ISO/IEC 14496-12 `mvhd`, `mdhd`, `tkhd`, `elst`, `tfdt`).
    mutating func versioned(_ version: UInt8, _ field: String) throws(MP4ReadError) -> UInt64 {
        version == 1 ? try u64(field) : UInt64(try u32(field))
    }

    /// The version and flags of a `FullBox` (§4.2).
    mutating func fullBoxHeader() throws(MP4ReadError) -> (version: UInt8, flags: UInt32) {
        let word = try u32("version/flags")
        return (UInt8(word >> 24), word & 0xFF_FFFF)
    }

    mutating func skip(_ count: Int, _ field: String) throws(MP4ReadError) {
        _ = try take(count, field)
    }

    /// Checks that a table of `count` entries of `entrySize` bytes fits in what is left of the box, before
    /// anything is allocated for it.
    func checkTable(count: UInt64, entrySize: Int, _ field: String) throws(MP4ReadError) {
        let needed = count.multipliedReportingOverflow(by: UInt64(entrySize))
        guard !needed.overflow, needed.partialValue <= UInt64(remaining) else {
            throw failure("\(field) \(count) entries of \(entrySize) bytes do not fit in the \(remaining) bytes left in the box")
        }
    }
}

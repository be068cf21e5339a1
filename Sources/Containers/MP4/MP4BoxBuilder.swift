/// Builds ISO base media file format boxes in memory (ISO/IEC 14496-12 §4.2): a box is a 32-bit size,
/// a four-character type and a payload; a full box adds an 8-bit version and 24-bit flags.
///
/// Sizes are patched when a box closes, so nested boxes are written in one pass.
struct MP4BoxBuilder {
    /// The bytes built so far.
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes a box (§4.2 `Box`): its header, the payload `body` writes, then the patched size.
    mutating func box(_ type: StaticString, _ body: (inout MP4BoxBuilder) -> Void) {
        let start = bytes.count
        uint32(0)
        fourCC(type)
        body(&self)
        patchSize(at: start)
    }

    /// Writes a full box (§4.2 `FullBox`): header, version, flags, then the payload.
    mutating func fullBox(_ type: StaticString, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout MP4BoxBuilder) -> Void) {
        box(type) { builder in
            builder.uint32(UInt32(version) << 24 | (flags & 0x00FF_FFFF))
            body(&builder)
        }
    }

    /// Writes a box whose payload is given whole (`avcC`, `hvcC`).
    mutating func box(_ type: StaticString, payload: [UInt8]) {
        box(type) { $0.append(payload) }
    }

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func uint24(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func uint32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    mutating func uint64(_ value: UInt64) {
        uint32(UInt32(truncatingIfNeeded: value >> 32))
        uint32(UInt32(truncatingIfNeeded: value))
    }

    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }

    mutating func append(_ payload: [UInt8]) { bytes.append(contentsOf: payload) }

    mutating func fourCC(_ code: StaticString) {
        code.withUTF8Buffer { bytes.append(contentsOf: $0.prefix(4)) }
    }

    /// The unity transformation matrix of `mvhd`/`tkhd` (§8.2.2, §8.3.2).
    mutating func unityMatrix() {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { uint32(value) }
    }

    /// Replaces the 32-bit field at `offset` (a `trun` data offset known once the `moof` is complete).
    mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }

    /// The number of bytes built so far.
    var count: Int { bytes.count }

    /// Sets the 32-bit size of the box that starts at `start` to reach the end of the bytes.
    mutating func patchSize(at start: Int) {
        let size = UInt32(truncatingIfNeeded: bytes.count - start)
        bytes[start] = UInt8(truncatingIfNeeded: size >> 24)
        bytes[start + 1] = UInt8(truncatingIfNeeded: size >> 16)
        bytes[start + 2] = UInt8(truncatingIfNeeded: size >> 8)
        bytes[start + 3] = UInt8(truncatingIfNeeded: size)
    }
}

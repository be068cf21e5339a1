/// Builds small MP4 files box by box, for the hostile-file tests: a valid skeleton whose boxes a test replaces.
enum MP4Synthesis {
    static func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func be64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, be32(UInt32(version) << 24 | flags) + payload)
    }

    static let ftyp = box("ftyp", Array("isom".utf8) + be32(512) + Array("isomiso2mp41".utf8))
    static let mvhd = fullBox("mvhd", be32(0) + be32(0) + be32(1000) + be32(3000) + [UInt8](repeating: 0, count: 80))

    /// The boxes of a track's `stbl`, each replaceable.
    struct SampleTable {
        var stsd = fullBox("stsd", be32(1) + box("tx3g", [UInt8](repeating: 0, count: 8)))
        var stts = fullBox("stts", be32(1) + be32(3) + be32(1000))
        var stsc = fullBox("stsc", be32(1) + be32(1) + be32(3) + be32(1))
        var stsz = fullBox("stsz", be32(0) + be32(3) + be32(4) + be32(4) + be32(4))
        var stco: [UInt8]

        init(chunkOffset: UInt32) {
            stco = fullBox("stco", be32(1) + be32(chunkOffset))
        }

        var bytes: [UInt8] { box("stbl", stsd + stts + stsc + stsz + stco) }
    }

    static func track(id: UInt32 = 1, stbl: [UInt8]) -> [UInt8] {
        let tkhd = fullBox("tkhd", be32(0) + be32(0) + be32(id) + [UInt8](repeating: 0, count: 72))
        let mdhd = fullBox("mdhd", be32(0) + be32(0) + be32(1000) + be32(3000) + [0x55, 0xC4, 0, 0])
        let hdlr = fullBox("hdlr", be32(0) + Array("text".utf8) + [UInt8](repeating: 0, count: 13))
        return box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", stbl)))
    }

    /// `ftyp`, `mdat` with three 4-byte samples, then `moov` with one track; `edit` changes the sample table,
    /// `moovExtra` is appended inside `moov`.
    static func file(edit: (inout SampleTable) -> Void = { _ in }, moovExtra: [UInt8] = [], tracks: Int = 1) -> [UInt8] {
        let mdat = box("mdat", [UInt8](repeating: 0xAB, count: 12))
        var table = SampleTable(chunkOffset: UInt32(ftyp.count + 8))
        edit(&table)
        let traks = (0..<tracks).flatMap { track(id: UInt32($0 + 1), stbl: table.bytes) }
        return ftyp + mdat + box("moov", mvhd + traks + moovExtra)
    }

    /// The offset of the first box of `type` in `bytes` (its size field).
    static func offset(of type: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(type.utf8)
        guard bytes.count >= 8 else { return nil }
        for index in 4...(bytes.count - 4) where Array(bytes[index..<(index + 4)]) == pattern { return index - 4 }
        return nil
    }
}

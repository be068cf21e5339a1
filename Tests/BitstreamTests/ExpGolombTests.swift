import Testing
@testable import Bitstream

/// Exp-Golomb codes against ITU-T H.264 Table 9-2 (bit strings) and Table 9-3 (se(v) mapping).
@Suite struct ExpGolombTests {
    /// Table 9-2: codeNum → bit string.
    static let table92: [(UInt32, String)] = [
        (0, "1"), (1, "010"), (2, "011"), (3, "00100"), (4, "00101"), (5, "00110"), (6, "00111"),
        (7, "0001000"), (8, "0001001"), (14, "0001111"), (15, "000010000"), (30, "000011111"),
    ]

    private func bits(_ text: String) -> [UInt8] {
        var writer = BitWriter()
        for character in text { writer.flag(character == "1") }
        writer.alignWithZeros()
        return writer.bytes
    }

    @Test(arguments: table92)
    func readsUnsignedCodesOfTable92(codeNum: UInt32, code: String) throws {
        var reader = BitReader(bits(code))
        #expect(try reader.ue("value") == codeNum)
        #expect(reader.bitPosition == code.count)
    }

    @Test(arguments: table92)
    func writesUnsignedCodesOfTable92(codeNum: UInt32, code: String) {
        var writer = BitWriter()
        writer.ue(codeNum)
        #expect(writer.bitCount == code.count)
        #expect(writer.bytes == bits(code))
    }

    /// Table 9-3: codeNum k ↦ (−1)^(k+1) · Ceil(k ÷ 2).
    @Test(arguments: [(UInt32(0), Int32(0)), (1, 1), (2, -1), (3, 2), (4, -2), (5, 3), (6, -3)])
    func mapsSignedCodesAsTable93(codeNum: UInt32, value: Int32) throws {
        var writer = BitWriter()
        writer.ue(codeNum)
        var reader = BitReader(writer.bytes)
        #expect(try reader.se("value") == value)
        var signed = BitWriter()
        signed.se(value)
        #expect(signed.bytes == writer.bytes && signed.bitCount == writer.bitCount)
    }

    @Test func roundTripsExtremeValues() throws {
        var writer = BitWriter()
        let unsigned: [UInt32] = [0, 1, 254, 255, 65_535, 1 << 31, UInt32.max - 1]
        let signed: [Int32] = [Int32.min + 1, -65_536, -1, 0, 1, Int32.max]
        for value in unsigned { writer.ue(value) }
        for value in signed { writer.se(value) }
        writer.u(13, 0x1ABC)
        writer.rbspTrailingBits()
        var reader = BitReader(writer.bytes)
        for value in unsigned { #expect(try reader.ue("u") == value) }
        for value in signed { #expect(try reader.se("s") == value) }
        #expect(try reader.u(13, "tail") == 0x1ABC)
        #expect(!reader.hasMoreRBSPData())
        try reader.rbspTrailingBits()
        #expect(reader.bitsRemaining == 0)
    }

    @Test func overlongCodeIsATypedError() {
        var reader = BitReader([UInt8](repeating: 0, count: 5) + [0x80])
        #expect(throws: SyntaxError(field: "pic_width_in_mbs_minus1", bitOffset: 0, reason: .expGolombOverflow)) {
            _ = try reader.ue("pic_width_in_mbs_minus1")
        }
        #expect(reader.bitPosition == 0)
    }

    @Test func truncatedCodeNamesFieldAndOffset() throws {
        var reader = BitReader([0xFF, 0x00])  // eight 1 bits (eight ue values of 0), then zeros only
        for _ in 0..<8 { _ = try reader.ue("x") }
        #expect(throws: SyntaxError(field: "frame_num", bitOffset: 8, reason: .endOfData)) {
            _ = try reader.ue("frame_num")
        }
    }

    @Test func rangeChecksNameTheField() {
        var writer = BitWriter()
        writer.ue(300)
        var reader = BitReader(writer.bytes)
        #expect(throws: SyntaxError(field: "pic_parameter_set_id", bitOffset: 0, reason: .outOfRange(value: 300, allowed: 0...255))) {
            _ = try reader.ue("pic_parameter_set_id", max: 255)
        }
    }

    @Test func moreRBSPDataFindsTheStopBit() throws {
        // 1 (ue 0) then stop bit, then a cabac_zero_word-like tail of zero bytes.
        var reader = BitReader([0b1100_0000, 0x00, 0x00])
        #expect(reader.hasMoreRBSPData())
        _ = try reader.ue("x")
        #expect(!reader.hasMoreRBSPData())
    }
}

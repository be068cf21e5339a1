import Testing
@testable import Bitstream

/// ITU-T H.264 §7.4.1: within a NAL unit, 00 00 0x (x ≤ 3) is always written as 00 00 03 0x.
@Suite struct EmulationPreventionTests {
    static let pairs: [([UInt8], [UInt8])] = [
        ([0x00, 0x00, 0x00], [0x00, 0x00, 0x03, 0x00]),
        ([0x00, 0x00, 0x01], [0x00, 0x00, 0x03, 0x01]),
        ([0x00, 0x00, 0x02], [0x00, 0x00, 0x03, 0x02]),
        ([0x00, 0x00, 0x03], [0x00, 0x00, 0x03, 0x03]),
        ([0x00, 0x00, 0x04], [0x00, 0x00, 0x04]),
        ([0x00, 0x00, 0x00, 0x00, 0x00], [0x00, 0x00, 0x03, 0x00, 0x00, 0x03, 0x00]),
        ([0x65, 0x00, 0x00, 0x01, 0x00, 0x00, 0xFF], [0x65, 0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0xFF]),
        ([0x00, 0x00], [0x00, 0x00, 0x03]),  // a trailing zero is protected (cabac_zero_word)
    ]

    @Test(arguments: pairs)
    func insertsAndRemoves(rbsp: [UInt8], ebsp: [UInt8]) throws {
        #expect(EmulationPrevention.ebsp(fromRBSP: rbsp) == ebsp)
        #expect(EmulationPrevention.rbsp(fromEBSP: ebsp) == rbsp)
        #expect(try EmulationPrevention.checkedRBSP(fromEBSP: ebsp) == rbsp)
    }

    @Test func missingEmulationByteIsReportedWithItsOffset() {
        #expect(throws: EmulationPrevention.Failure.missingEmulationPreventionByte(byteOffset: 4)) {
            _ = try EmulationPrevention.checkedRBSP(fromEBSP: [0x67, 0x42, 0x00, 0x00, 0x01, 0x10])
        }
    }

    @Test func randomPayloadsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            // Zero-heavy payloads exercise every pattern.
            let rbsp = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...4, using: &generator) == 0 ? UInt8.random(in: 0...255, using: &generator) : 0
            }
            let ebsp = EmulationPrevention.ebsp(fromRBSP: rbsp)
            #expect(EmulationPrevention.rbsp(fromEBSP: ebsp) == rbsp)
            #expect(AnnexB.nalUnitRanges(in: AnnexB.startCode + [0x06] + ebsp + [0x80]).count == 1)
        }
    }
}

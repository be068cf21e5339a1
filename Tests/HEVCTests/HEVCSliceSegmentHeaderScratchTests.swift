import Testing
import Bitstream
import HEVC
import TestSupport

/// `HEVCSliceSegmentHeader(nalUnit:parameterSets:scratch:)`: with one buffer reused for every slice
/// segment of a stream, the same header (or the same error) as the allocating form and as the parse
/// written out the way it has always been done (unescape the first 64 payload bytes).
@Suite struct HEVCSliceSegmentHeaderScratchTests {

    /// The slice segment header parse as it was before the scratch buffer: the first 64 payload
    /// bytes unescaped byte by byte, then the RBSP parse.
    static func legacyParse(_ nalUnit: [UInt8], sets: HEVCParameterSets) -> Result<HEVCSliceSegmentHeader, HEVCError> {
        Result { () throws(HEVCError) in
            let header = try HEVCNALUnitHeader(parsing: nalUnit)
            guard header.type.isVCL else { throw .unexpectedNALUnitType(header.type, expected: "a VCL NAL unit (types 0...31)") }
            var rbsp = [UInt8]()
            var zeros = 0
            for (offset, byte) in nalUnit.dropFirst(HEVCNALUnitHeader.byteCount).prefix(64).enumerated() {
                if zeros >= 2 {
                    if byte == 0x03 { zeros = 0; continue }
                    if byte < 0x03 { throw .missingEmulationPreventionByte(byteOffset: offset, nalUnitType: header.type) }
                }
                rbsp.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return try HEVCSliceSegmentHeader(rbsp: rbsp, nalUnitHeader: header, parameterSets: sets)
        }
    }

    /// Variants of a VCL NAL unit that reach the error paths: cut short, a missing
    /// emulation-prevention byte inside or past the unescaped prefix, a flipped byte.
    static func variants(of nalUnit: [UInt8], using generator: inout SplitMix64) -> [[UInt8]] {
        var out = [nalUnit]
        for length in [1, 2, 3, 5, 12, 30, 66, 67] where length < nalUnit.count {
            out.append(Array(nalUnit.prefix(length)))
        }
        for offset in [2, 3, 10, 40, 65, 66, 67, 100] + [Int.random(in: 2...max(2, nalUnit.count), using: &generator)]
        where offset <= nalUnit.count {
            var broken = nalUnit
            broken.insert(contentsOf: [0x00, 0x00, 0x02], at: offset)
            out.append(broken)
        }
        if nalUnit.count > 3 {
            var flipped = nalUnit
            let index = Int.random(in: 2..<min(nalUnit.count, 70), using: &generator)
            flipped[index] ^= UInt8.random(in: 1...255, using: &generator)
            out.append(flipped)
        }
        return out
    }

    @Test("the scratch form parses every slice segment as before", .requiresMedia, arguments: try Streams.all())
    func sameAsBefore(stream: TestStream) throws {
        let bytes = try stream.bytes()
        var sets = HEVCParameterSets()
        var scratch = [UInt8]()  // one buffer for the whole stream, never cleared by the test
        var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: stream.name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var segments = 0
        var mismatches: [String] = []
        for range in AnnexB.nalUnitRanges(in: bytes) {
            let nalUnit = Array(bytes[range])
            guard let header = try? HEVCNALUnitHeader(parsing: nalUnit) else { continue }
            if (32...34).contains(header.type.rawValue) {
                _ = try? sets.insert(nalUnit: nalUnit)
                continue
            }
            guard header.type.isVCL else { continue }
            segments += 1
            let inputs = segments <= 40 ? Self.variants(of: nalUnit, using: &generator) : [nalUnit]
            for input in inputs {
                let before = Self.legacyParse(input, sets: sets)
                let plain = Result { () throws(HEVCError) in try HEVCSliceSegmentHeader(nalUnit: input, parameterSets: sets) }
                let reused = Result { () throws(HEVCError) in
                    try HEVCSliceSegmentHeader(nalUnit: input[...], parameterSets: sets, scratch: &scratch)
                }
                if plain != before || reused != before {
                    mismatches.append("segment \(segments) (\(input.count) bytes): before \(before), now \(plain) / \(reused)")
                }
            }
        }
        #expect(segments > 0)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}

import Testing
import Bitstream
import H264
import TestSupport

/// `H264SliceHeader(nalUnit:parameterSets:scratch:)`: with one buffer reused for every slice of a
/// stream, the same header (or the same error) as the allocating form and as the parse written out
/// the way it has always been done (unescape 96 bytes, then the whole NAL unit if the header is longer).
@Suite struct H264SliceHeaderScratchTests {

    /// Emulation-prevention removal written out byte by byte, with H.264's error.
    static func referenceRBSP(_ ebsp: some Collection<UInt8>, header: H264NALUnitHeader) throws(H264Error) -> [UInt8] {
        var out = [UInt8]()
        var zeros = 0
        for (offset, byte) in ebsp.enumerated() {
            if zeros >= 2 {
                if byte == 0x03 { zeros = 0; continue }
                if byte < 0x03 {
                    throw .missingEmulationPreventionByte(nalUnitType: header.nalUnitType, byteOffset: offset + header.length)
                }
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// The slice-header parse of a slice NAL unit (types 1, 2, 5) as it was before the scratch buffer.
    static func legacyParse(_ nalUnit: [UInt8], header: H264NALUnitHeader, sets: H264ParameterSets) -> Result<H264SliceHeader, H264Error> {
        let fastPath = 96
        let lookUpPPS = { (id: UInt32) in sets.pictureParameterSet(id: id) }
        let lookUpSPS = { (id: UInt32) in sets.sequenceParameterSet(id: id) }
        do throws(H264Error) {
            let payload = nalUnit.dropFirst(header.length)
            let prefix = try referenceRBSP(payload.prefix(fastPath), header: header)
            do throws(H264Error) {
                return .success(try H264SliceHeader(rbsp: prefix, nalUnitHeader: header,
                                                    pictureParameterSet: lookUpPPS, sequenceParameterSet: lookUpSPS))
            } catch {
                guard payload.count > fastPath, case let .syntax(syntax, _) = error,
                      syntax.reason == .endOfData || syntax.reason == .expGolombOverflow else {
                    throw error
                }
                let whole = try referenceRBSP(payload, header: header)
                return .success(try H264SliceHeader(rbsp: whole, nalUnitHeader: header,
                                                    pictureParameterSet: lookUpPPS, sequenceParameterSet: lookUpSPS))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Variants of a slice NAL unit that reach the error paths: cut short, a missing
    /// emulation-prevention byte inside or past the fast path, a flipped byte.
    static func variants(of nalUnit: [UInt8], using generator: inout SplitMix64) -> [[UInt8]] {
        var out = [nalUnit]
        for length in [1, 2, 4, 12, 40, 96, 97, 98, 120] where length < nalUnit.count {
            out.append(Array(nalUnit.prefix(length)))
        }
        for offset in [2, 8, 60, 96, 97, 98, 140] + [Int.random(in: 1...max(1, nalUnit.count), using: &generator)]
        where offset <= nalUnit.count {
            var broken = nalUnit
            broken.insert(contentsOf: [0x00, 0x00, 0x01], at: offset)
            out.append(broken)
        }
        if nalUnit.count > 2 {
            var flipped = nalUnit
            let index = Int.random(in: 1..<min(nalUnit.count, 100), using: &generator)
            flipped[index] ^= UInt8.random(in: 1...255, using: &generator)
            out.append(flipped)
        }
        return out
    }

    @Test("the scratch form parses every slice as before", .requiresMedia, arguments: MediaFiles.h264Streams)
    func sameAsBefore(path: String) throws {
        let stream = try MediaFiles.bytes(path)
        var sets = H264ParameterSets()
        var scratch = [UInt8]()  // one buffer for the whole stream, never cleared by the test
        var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: path.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var slices = 0
        var mismatches: [String] = []
        for range in AnnexB.nalUnitRanges(in: stream) {
            let nalUnit = Array(stream[range])
            guard let header = try? H264NALUnitHeader(parsing: nalUnit) else { continue }
            switch header.nalUnitType {
            case .sequenceParameterSet, .pictureParameterSet:
                _ = try? sets.process(nalUnit: nalUnit)
                continue
            case .nonIDRSlice, .idrSlice, .sliceDataPartitionA:
                break
            default:
                continue
            }
            slices += 1
            // Every slice once; the broken variants of the first slices of each stream.
            let inputs = slices <= 40 ? Self.variants(of: nalUnit, using: &generator) : [nalUnit]
            for input in inputs {
                let before = Self.legacyParse(input, header: header, sets: sets)
                let plain = Result { () throws(H264Error) in try H264SliceHeader(nalUnit: input, parameterSets: sets) }
                let reused = Result { () throws(H264Error) in
                    try H264SliceHeader(nalUnit: input, parameterSets: sets, scratch: &scratch)
                }
                let closures = Result { () throws(H264Error) in
                    try H264SliceHeader(nalUnit: input[...],
                                        pictureParameterSet: { sets.pictureParameterSet(id: $0) },
                                        sequenceParameterSet: { sets.sequenceParameterSet(id: $0) },
                                        scratch: &scratch)
                }
                if plain != before || reused != before || closures != before {
                    mismatches.append("slice \(slices) (\(input.count) bytes): before \(before), now \(plain) / \(reused) / \(closures)")
                }
            }
        }
        #expect(slices > 0)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(.requiresMedia) func theDetectorReusesItsBufferAcrossSlices() throws {
        // The detector keeps a scratch buffer; its results must not depend on what the previous
        // slice left there: feeding the NAL units of a stream twice to fresh detectors and once to a
        // detector that has already seen another stream gives the same pictures.
        let first = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let second = try MediaFiles.bytes("encoded/VID_1280x720_cabac_temporal_direct.264")
        func results(_ stream: [UInt8], after warmUp: [UInt8]?) throws -> [H264AccessUnitDetector.Result] {
            var detector = H264AccessUnitDetector()
            if let warmUp {
                for range in AnnexB.nalUnitRanges(in: warmUp) { _ = try detector.process(warmUp[range]) }
            }
            var out: [H264AccessUnitDetector.Result] = []
            var parameterSets = H264ParameterSets()
            for range in AnnexB.nalUnitRanges(in: stream) {
                let result = try detector.process(stream[range])
                if result.sliceHeader != nil {
                    // The slice header the detector read equals the one parsed on its own.
                    #expect(result.sliceHeader == (try H264SliceHeader(nalUnit: stream[range], parameterSets: parameterSets)))
                } else if result.nalUnitHeader.nalUnitType == .sequenceParameterSet
                            || result.nalUnitHeader.nalUnitType == .pictureParameterSet {
                    try parameterSets.process(nalUnit: stream[range])
                }
                out.append(result)
            }
            return out
        }
        let fresh = try results(first, after: nil)
        let warmed = try results(first, after: second)
        #expect(fresh.map(\.sliceHeader) == warmed.map(\.sliceHeader))
        #expect(fresh.map(\.startsAccessUnit) == warmed.map(\.startsAccessUnit))
        #expect(fresh.compactMap(\.picture).count == warmed.compactMap(\.picture).count)
    }
}

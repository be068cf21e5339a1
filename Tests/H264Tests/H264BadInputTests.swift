import Bitstream
import H264
import TestSupport
import Testing

/// Malformed input gets a typed error that names the field and where it is.
@Suite("Bad input")
struct H264BadInputTests {
    /// The SPS of the JVT conformance stream BA_MW_D (Constrained Baseline, level 1, 176x144).
    static func conformanceSPS() throws -> [UInt8] {
        let stream = try MediaFiles.bytes("h264-conformance/jvt-avc-v1/BA_MW_D.264")
        return Array(try #require(AnnexB.nalUnitRanges(in: stream).map { stream[$0] }.first { H264NALUnitType(headerByte: $0.first ?? 0) == .sequenceParameterSet }))
    }

    static func syntaxField(_ error: any Error) -> String? {
        guard let error = error as? H264Error, case let .syntax(syntax, _) = error else { return nil }
        return syntax.field
    }

    @Test("a truncated SPS is an end-of-data error at the field where it stops", .requiresMedia)
    func truncatedSPS() throws {
        let sps = try Self.conformanceSPS()
        // Header, profile_idc, constraint flags and level_idc only: seq_parameter_set_id is missing.
        #expect(throws: H264Error.syntax(SyntaxError(field: "seq_parameter_set_id", bitOffset: 24, reason: .endOfData),
                                         nalUnitType: .sequenceParameterSet)) {
            try H264SequenceParameterSet(nalUnit: sps.prefix(4))
        }
        // Every shorter prefix fails with a syntax error naming a field.
        for count in 2..<sps.count {
            #expect(performing: { try H264SequenceParameterSet(nalUnit: sps.prefix(count)) },
                    throws: { Self.syntaxField($0)?.isEmpty == false })
        }
    }

    @Test("level_idc 99 is not a defined level", .requiresMedia)
    func undefinedLevel() throws {
        var sps = try Self.conformanceSPS()
        sps[3] = 99
        do {
            _ = try H264SequenceParameterSet(nalUnit: sps)
            Issue.record("level 99 was accepted")
        } catch {
            #expect(error.description == "SPS: level_idc: value 99 is not a defined level (RBSP byte 2, bit 16)")
        }
    }

    @Test("a width of 2^20 macroblocks is out of range for pic_width_in_mbs_minus1", .requiresMedia)
    func hugeWidth() throws {
        var sps = try H264SequenceParameterSet(nalUnit: try Self.conformanceSPS())
        sps.picWidthInMbsMinus1 = 1 << 20
        #expect {
            try H264SequenceParameterSet(nalUnit: sps.nalUnit())
        } throws: { error in
            guard let error = error as? H264Error, case let .syntax(syntax, .sequenceParameterSet) = error else { return false }
            return syntax.field == "pic_width_in_mbs_minus1" && syntax.reason == .outOfRange(value: 1 << 20, allowed: 0...1023)
        }
    }

    @Test("a crop window wider than the picture is an error naming frame_crop_right_offset", .requiresMedia)
    func cropLargerThanPicture() throws {
        var sps = try H264SequenceParameterSet(nalUnit: try Self.conformanceSPS())
        sps.frameCropping = .init(left: 40, right: 48)  // 2 · 88 = 176 samples: nothing left
        #expect(performing: { try H264SequenceParameterSet(nalUnit: sps.nalUnit()) },
                throws: { Self.syntaxField($0) == "frame_crop_right_offset" })
        sps.frameCropping = .init(left: 40, right: 47)
        #expect(try H264SequenceParameterSet(nalUnit: sps.nalUnit()).width == 2)
    }

    @Test("pic_parameter_set_id 300 is a range error naming pic_parameter_set_id")
    func ppsID300() throws {
        var writer = BitWriter()
        writer.ue(300)  // pic_parameter_set_id
        writer.ue(0)    // seq_parameter_set_id
        writer.u(8, 0)  // flags and zero-valued Exp-Golomb codes would follow
        writer.rbspTrailingBits()
        let nal = [UInt8(0x68)] + EmulationPrevention.ebsp(fromRBSP: writer.bytes)
        do {
            _ = try H264PictureParameterSet(nalUnit: nal, parameterSets: H264ParameterSets())
            Issue.record("PPS id 300 was accepted")
        } catch {
            #expect(error == .syntax(SyntaxError(field: "pic_parameter_set_id", bitOffset: 0,
                                                 reason: .outOfRange(value: 300, allowed: 0...255)),
                                     nalUnitType: .pictureParameterSet))
            #expect(error.description == "PPS: pic_parameter_set_id: value 300 outside 0...255 (RBSP byte 0, bit 0)")
        }
    }

    @Test("a PPS with 8x8 scaling lists needs its SPS", .requiresMedia)
    func ppsNeedsSPS() throws {
        var pps = H264PictureParameterSet(id: 1, seqParameterSetID: 3)
        pps.fidelityRangeExtension = .init(transform8x8ModeFlag: true,
                                           scalingMatrix: H264ScalingMatrix(lists: Array(repeating: nil, count: 8)),
                                           secondChromaQPIndexOffset: 0)
        #expect(throws: H264Error.unknownSequenceParameterSet(id: 3, referencedBy: .pictureParameterSet)) {
            try H264PictureParameterSet(nalUnit: pps.nalUnit(), parameterSets: H264ParameterSets())
        }
        var sps = try H264SequenceParameterSet(nalUnit: try Self.conformanceSPS())
        sps.id = 3
        let parsed = try H264PictureParameterSet(nalUnit: pps.nalUnit(), parameterSets: H264ParameterSets(sequenceParameterSets: [sps]))
        #expect(parsed == pps)
    }

    @Test("header errors: empty, forbidden bit, missing emulation prevention, wrong type")
    func headerErrors() throws {
        #expect(throws: H264Error.emptyNALUnit) { try H264SequenceParameterSet(nalUnit: [UInt8]()) }
        #expect(throws: H264Error.forbiddenZeroBitSet(nalUnitType: .sequenceParameterSet)) {
            try H264SequenceParameterSet(nalUnit: [0xE7, 0x42, 0x00, 0x0A])
        }
        #expect(throws: H264Error.missingEmulationPreventionByte(nalUnitType: .sequenceParameterSet, byteOffset: 4)) {
            try H264SequenceParameterSet(nalUnit: [0x67, 0x42, 0x00, 0x00, 0x01, 0x1E])
        }
        #expect(throws: H264Error.unexpectedNALUnitType(.pictureParameterSet, expected: .sequenceParameterSet)) {
            try H264SequenceParameterSet(nalUnit: [0x68, 0xCE, 0x38, 0x80])
        }
        #expect(throws: H264Error.truncatedNALUnitHeader(nalUnitType: .sliceExtension, byteCount: 2)) {
            try H264NALUnitHeader(parsing: [0x74, 0x00])
        }
    }

    @Test("random bytes never trap: every failure is a typed H264Error with a description", .requiresMedia)
    func randomBytes() throws {
        let stream = try MediaFiles.bytes("h264-conformance/jvt-avc-v1/BA_MW_D.264")
        var sets = H264ParameterSets()
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }).prefix(2) { try sets.process(nalUnit: nal) }
        var generator = SplitMix64(seed: 0x5EED_2640)
        let types: [UInt8] = [0x67, 0x68, 0x65, 0x41, 0x06, 0x09, 0x01, 0x62]
        var failures = 0
        for round in 0..<3000 {
            let count = Int(generator.next() % 40)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if !bytes.isEmpty && round % 10 != 0 { bytes[0] = types[Int(generator.next() % UInt64(types.count))] }
            var detector = H264AccessUnitDetector(parameterSets: sets)
            for attempt in 0..<5 {
                do {
                    switch attempt {
                    case 0: _ = try H264SequenceParameterSet(nalUnit: bytes)
                    case 1: _ = try H264PictureParameterSet(nalUnit: bytes, parameterSets: sets)
                    case 2: _ = try H264SliceHeader(nalUnit: bytes, parameterSets: sets)
                    case 3: _ = try H264SEIMessage.messages(inNALUnit: bytes)
                    default: _ = try detector.process(bytes)
                    }
                } catch {
                    failures += 1
                    #expect(!error.description.isEmpty)
                    if case let .syntax(syntax, _) = error { #expect(!syntax.field.isEmpty) }
                }
            }
        }
        #expect(failures > 10_000)
    }
}


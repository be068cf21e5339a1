import Foundation
import Testing
import Bitstream
import HEVC
import TestSupport

/// Malformed input gets a typed error that names the field (never a trap).
struct HEVCBadInputTests {
    /// The first SPS of the x265 B-frame stream.
    static func realSPS() throws -> [UInt8] {
        let bytes = try Streams.generated("x265-bframes").bytes()
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        guard let sps = units.first(where: { $0[0] >> 1 == 33 }) else { throw TestFailure("no SPS") }
        return sps
    }

    /// The syntax error inside an HEVC error, if it is one.
    static func syntaxError(_ error: HEVCError) -> SyntaxError? {
        if case let .syntax(syntax, _) = error { return syntax }
        return nil
    }

    @Test("a truncated SPS names the field where the data ends", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func truncatedSPS() throws {
        let sps = try Self.realSPS()
        var fields = Set<String>()
        for length in 3..<sps.count - 1 {
            do {
                _ = try HEVCSequenceParameterSet(nalUnit: sps.prefix(length))
                Issue.record("SPS cut to \(length) bytes was accepted")
            } catch {
                guard case let .syntax(syntax, type) = error else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(type == .sps)
                fields.insert(syntax.field)
                #expect(error.description.contains(syntax.field))
            }
        }
        #expect(fields.contains("pic_width_in_luma_samples") || fields.contains("general_level_idc"))
    }

    @Test("pps_pic_parameter_set_id 300 is outside 0...63 (§7.4.3.3.1)")
    func ppsIDOutOfRange() {
        var writer = BitWriter()
        writer.ue(300)
        writer.ue(0)
        writer.rbspTrailingBits()
        let nalUnit = [0x44, 0x01] + EmulationPrevention.ebsp(fromRBSP: writer.bytes)
        #expect(throws: HEVCError.syntax(SyntaxError(field: "pps_pic_parameter_set_id", bitOffset: 0,
                                                     reason: .outOfRange(value: 300, allowed: 0...63)), nalUnitType: .pps)) {
            try HEVCPictureParameterSet(nalUnit: nalUnit)
        }
    }

    @Test("a width of 2^20 luma samples is rejected (larger than any level of Table A.8 allows)",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func absurdWidth() throws {
        var sps = try HEVCSequenceParameterSet(nalUnit: try Self.realSPS())
        sps.picWidthInLumaSamples = 1 << 20
        do {
            _ = try HEVCSequenceParameterSet(nalUnit: sps.nalUnit())
            Issue.record("width 2^20 was accepted")
        } catch {
            let syntax = try #require(Self.syntaxError(error))
            #expect(syntax.field == "pic_width_in_luma_samples")
            #expect(syntax.reason == .outOfRange(value: 1 << 20, allowed: 1...16_888))
        }
        sps.picWidthInLumaSamples = 324   // not a multiple of MinCbSizeY (8)
        do {
            _ = try HEVCSequenceParameterSet(nalUnit: sps.nalUnit())
            Issue.record("width 324 was accepted")
        } catch {
            #expect(Self.syntaxError(error)?.field == "pic_width_in_luma_samples")
            #expect(error.description.contains("multiple of MinCbSizeY"))
        }
    }

    @Test("temporal id 0 and the forbidden bit are rejected in parameter sets too")
    func badHeaders() {
        #expect(throws: HEVCError.zeroTemporalIDPlus1(nalUnitType: .sps)) { try HEVCSequenceParameterSet(nalUnit: [0x42, 0x00, 0x01]) }
        #expect(throws: HEVCError.forbiddenZeroBitSet(nalUnitType: .pps)) { try HEVCPictureParameterSet(nalUnit: [0xC4, 0x01, 0x80]) }
        #expect(throws: HEVCError.unexpectedNALUnitType(.pps, expected: "SPS_NUT")) { try HEVCSequenceParameterSet(nalUnit: [0x44, 0x01, 0x80]) }
    }

    @Test("a missing emulation-prevention byte is reported with its offset")
    func missingEmulationPrevention() {
        #expect(throws: HEVCError.missingEmulationPreventionByte(byteOffset: 3, nalUnitType: .vps)) {
            try HEVCVideoParameterSet(nalUnit: [0x40, 0x01, 0x0C, 0x00, 0x00, 0x01, 0xFF])
        }
    }

    @Test("x265's out-of-range scaling_list_pred_matrix_id_delta is rejected, as ffmpeg rejects it",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func invalidScalingListFromX265() throws {
        let stream = try Streams.generated(Streams.invalidScalingListRecipe.name)
        let bytes = try stream.bytes()
        let sps = try #require(AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }.first { $0[0] >> 1 == 33 })
        do {
            _ = try HEVCSequenceParameterSet(nalUnit: sps)
            Issue.record("the SPS was accepted")
        } catch {
            let syntax = try #require(Self.syntaxError(error))
            #expect(syntax.field == "scaling_list_pred_matrix_id_delta")
            #expect(syntax.reason == .outOfRange(value: 3, allowed: 0...1))
        }
        // The oracle: ffmpeg's own parser refuses the same SPS for the same reason.
        let trace = try TraceHeaders.traceText(["-v", "trace", "-i", stream.path, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        #expect(trace.contains("scaling_list_pred_matrix_id_delta[sizeId][matrixId] out of range: 3"))
    }

    @Test("random bytes never trap: every parser returns a value or a typed error")
    func randomBytes() throws {
        var generator = SplitMix64(seed: 0x5EED_0265)
        var parameterSets = HEVCParameterSets()
        var detector = HEVCAccessUnitDetector()
        var syntaxErrors = 0
        for round in 0..<3_000 {
            let count = Int(generator.next() % 48)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if round % 3 == 0, bytes.count > 2 { bytes[0] = UInt8(32 + round % 3) << 1; bytes[1] = 1 }
            let results: [Result<Void, HEVCError>] = [
                Result { () throws(HEVCError) in _ = try HEVCVideoParameterSet(rbsp: bytes) },
                Result { () throws(HEVCError) in _ = try HEVCSequenceParameterSet(rbsp: bytes) },
                Result { () throws(HEVCError) in _ = try HEVCPictureParameterSet(rbsp: bytes) },
                Result { () throws(HEVCError) in _ = try parameterSets.insert(nalUnit: bytes) },
                Result { () throws(HEVCError) in _ = try HEVCSliceSegmentHeader(nalUnit: bytes, parameterSets: parameterSets) },
                Result { () throws(HEVCError) in _ = try detector.startsNewAccessUnit(bytes) },
                Result { () throws(HEVCError) in _ = try HEVCDecoderConfigurationRecord(bytes: [1] + bytes) },
            ]
            for case let .failure(error) in results {
                #expect(!error.description.isEmpty)
                if let syntax = Self.syntaxError(error) {
                    syntaxErrors += 1
                    #expect(!syntax.field.isEmpty && error.description.contains(syntax.field))
                }
            }
        }
        #expect(syntaxErrors > 1_000)
    }
}

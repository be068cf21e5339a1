import Foundation
import Testing
import Bitstream
import HEVC
import TestSupport

/// hvcC (ISO/IEC 14496-15 §8.3.3.1) against the records ffmpeg's MP4 muxer writes.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct HEVCDecoderConfigurationRecordTests {
    /// Remuxes a stream into MP4 with ffmpeg and returns the payload of its hvcC box.
    static func ffmpegRecord(for file: String, tag: String) throws -> [UInt8] {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = directory.appendingPathComponent("out.mp4").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", file, "-c", "copy", "-tag:v", tag, mp4])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4)))
        guard let record = MP4Boxes.payloads(of: "hvcC", in: bytes).first else {
            throw TestFailure("no hvcC box in \(mp4)")
        }
        return record
    }

    /// Every stream as `hev1` (array_completeness 0); three as `hvc1` (array_completeness 1).
    static let cases: [(String, String)] = HEVCParameterSetTests.streamNames.map { ($0, "hev1") }
        + ["rtp/wilson_raw.h265", "x265-hrd", "x265-rext-422-10bit"].map { ($0, "hvc1") }

    @Test("parse → bytes() is identical; building from the parameter sets gives ffmpeg's record", .requiresMedia, arguments: cases)
    func roundTripAndBuild(name: String, tag: String) throws {
        let stream = try HEVCParameterSetTests.stream(named: name)
        let record = try Self.ffmpegRecord(for: stream.path, tag: tag)
        let parsed = try HEVCDecoderConfigurationRecord(bytes: record)
        #expect(parsed.bytes() == record)
        #expect(parsed.arrays.allSatisfy { $0.arrayCompleteness == (tag == "hvc1") })

        let sps = try HEVCSequenceParameterSet(nalUnit: try #require(parsed.nalUnits(ofType: .sps).first))
        #expect(parsed.generalProfileIDC == sps.profileTierLevel.general.profileIDC)
        #expect(parsed.generalLevelIDC == sps.profileTierLevel.generalLevelIDC)
        #expect(parsed.chromaFormatIDC == sps.chromaFormatIDC)
        #expect(parsed.bitDepthLumaMinus8 == sps.bitDepthLumaMinus8)
        #expect(parsed.nalUnitLengthSize == 4)

        let built = try HEVCDecoderConfigurationRecord(
            videoParameterSets: parsed.nalUnits(ofType: .vps), sequenceParameterSets: parsed.nalUnits(ofType: .sps),
            pictureParameterSets: parsed.nalUnits(ofType: .pps), arrayCompleteness: tag == "hvc1")
        #expect(built == parsed)
        #expect(built.bytes() == record)
    }

    @Test("malformed records give errors that name the field")
    func malformed() throws {
        let stream = try Streams.generated("x265-bframes")
        let record = try Self.ffmpegRecord(for: stream.path, tag: "hvc1")
        // Layout of §8.3.3.1.2: 23 header bytes, then the first array: type (1), numNalus (2), nalUnitLength (2).
        let firstLength = Int(record[26]) << 8 | Int(record[27])
        #expect(throws: HEVCError.decoderConfigurationRecord(field: "nalUnit", byteOffset: 28,
                                                             reason: "\(firstLength)-byte NAL unit but only 4 bytes remain")) {
            try HEVCDecoderConfigurationRecord(bytes: Array(record.prefix(32)))
        }
        var badVersion = record
        badVersion[0] = 2
        #expect(throws: HEVCError.decoderConfigurationRecord(field: "configurationVersion", byteOffset: 0,
                                                             reason: "version 2 is not 1")) {
            try HEVCDecoderConfigurationRecord(bytes: badVersion)
        }
        do {
            _ = try HEVCDecoderConfigurationRecord(bytes: record + [0])
            Issue.record("a trailing byte was accepted")
        } catch {
            #expect(error.description.contains("follow the last NAL unit array"))
        }
        do {
            _ = try HEVCDecoderConfigurationRecord(bytes: Array(record.prefix(10)))
            Issue.record("a truncated header was accepted")
        } catch {
            #expect(error.description.contains("general_constraint_indicator_flags"))
        }
    }
}

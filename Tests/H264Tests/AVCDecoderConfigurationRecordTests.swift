import Bitstream
import Foundation
import H264
import TestSupport
import Testing

/// The avcC record against the ones MP4 writers produced.
@Suite("AVCDecoderConfigurationRecord")
struct AVCDecoderConfigurationRecordTests {
    /// The payload of the first `avcC` box in an MP4 file.
    static func avcCPayload(in file: [UInt8]) throws -> [UInt8] {
        guard let payload = MP4Boxes.payloads(of: "avcC", in: file).first else { throw TestFailure("no avcC box") }
        return payload
    }

    @Test("sample.mp4 (x264 via an older muxer, no High extension): parse and build byte-identical", .requiresMedia)
    func sampleMP4() throws {
        let payload = try Self.avcCPayload(in: try MediaFiles.bytes("encoded/sample.mp4"))
        let record = try AVCDecoderConfigurationRecord(bytes: payload)
        #expect(record.bytes() == payload)
        #expect(record.nalUnitLength == 4)
        #expect(record.highProfileExtension == nil)
        let sps = try H264SequenceParameterSet(nalUnit: try #require(record.sequenceParameterSets.first))
        #expect(record.profileIndication == sps.profileIDC)
        #expect(record.levelIndication == sps.levelIDC)
        // MANIFEST.md (ffprobe): High L3.1 1080x720.
        #expect(sps.profileName == "High" && sps.levelName == "3.1")
        #expect(sps.width == 1080 && sps.height == 720)
        let sets = try record.parameterSets()
        #expect(sets.pictureParameterSets.count == record.pictureParameterSets.count)
    }

    @Test("the avcC ffmpeg writes equals the one built from the stream's SPS and PPS", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: ["encoded/cars_320x240.h264", "h264-conformance/jvt-avc-v1/BA_MW_D.264",
                      "h264-conformance/jvt-frext/PPH10I1_Panasonic_A.264"])
    func ffmpegAvcC(path: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let mp4 = directory.appendingPathComponent("out.mp4").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", MediaFiles.url(path).path,
                                          "-frames:v", "2", "-c", "copy", mp4])
        let payload = try Self.avcCPayload(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4))))
        let record = try AVCDecoderConfigurationRecord(bytes: payload)
        #expect(record.bytes() == payload)

        let stream = try MediaFiles.bytes(path)
        let nals = AnnexB.nalUnitRanges(in: stream).map { stream[$0] }
        let sps = nals.filter { H264NALUnitType(headerByte: $0.first ?? 0) == .sequenceParameterSet }.map { Array($0) }
        let pps = nals.filter { H264NALUnitType(headerByte: $0.first ?? 0) == .pictureParameterSet }.map { Array($0) }
        let built = try AVCDecoderConfigurationRecord(sequenceParameterSets: [try #require(sps.first)],
                                                      pictureParameterSets: [try #require(pps.first)])
        // ffmpeg 5.1 copies the trailing_zero_8bits that follow a parameter set in the Annex B stream
        // into the record (BA_MW_D: `68 C9 23 88 00`); a NAL unit never ends in 0x00 (§7.4.1), so
        // compare with those zero bytes removed.
        var normalized = record
        normalized.sequenceParameterSets = record.sequenceParameterSets.map(Self.trimmingTrailingZeros)
        normalized.pictureParameterSets = record.pictureParameterSets.map(Self.trimmingTrailingZeros)
        #expect(built.bytes() == normalized.bytes())
        #expect(built.highProfileExtension == record.highProfileExtension)
    }

    static func trimmingTrailingZeros(_ unit: [UInt8]) -> [UInt8] {
        var end = unit.count
        while end > 0 && unit[end - 1] == 0 { end -= 1 }
        return Array(unit[..<end])
    }

    @Test("malformed records are errors naming the field", .requiresMedia)
    func malformed() throws {
        let payload = try Self.avcCPayload(in: try MediaFiles.bytes("encoded/sample.mp4"))
        var badLength = payload
        badLength[4] = 0xFE  // lengthSizeMinusOne = 2
        #expect(throws: H264Error.decoderConfigurationRecord(field: "lengthSizeMinusOne", byteOffset: 4,
                                                             reason: "value 2 (3-byte lengths) is not allowed; use 0, 1 or 3")) {
            try AVCDecoderConfigurationRecord(bytes: badLength)
        }
        #expect {
            try AVCDecoderConfigurationRecord(bytes: payload.prefix(12))
        } throws: { error in
            guard let error = error as? H264Error, case let .decoderConfigurationRecord(field, _, _) = error else { return false }
            return field == "sequenceParameterSetLength"
        }
        var version = payload
        version[0] = 2
        #expect(throws: H264Error.self) { try AVCDecoderConfigurationRecord(bytes: version) }
    }

    /// High 4:4:4 Predictive (profile_idc 244): the record ends with the High extension (ISO/IEC 14496-15
    /// §5.3.3.1), which x264's stream muxed by ffmpeg and ffmpeg's libx264 both write.
    @Test("High 4:4:4 Predictive (244): the avcC x264 and ffmpeg write parses, with chroma_format 3, and rebuilds byte-identically",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")), arguments: ["x264", "libx264"])
    func high444Predictive(writer: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let y4m = directory.appendingPathComponent("in.y4m").path
        let mp4 = directory.appendingPathComponent("out.mp4").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25", "-frames:v", "3",
                                          "-pix_fmt", "yuv444p", "-f", "yuv4mpegpipe", y4m])
        if writer == "x264" {
            let h264 = directory.appendingPathComponent("out.h264").path
            try await ExternalTool.check("x264", ["--quiet", "--profile", "high444", "--output-csp", "i444", "-o", h264, y4m])
            try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", h264, "-c", "copy", mp4])
        } else {
            try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", y4m, "-c:v", "libx264", "-pix_fmt", "yuv444p", mp4])
        }
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=profile", "-of", "csv=p=0", mp4])
        #expect(String(decoding: probe.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "High 4:4:4 Predictive")
        let payload = try Self.avcCPayload(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4))))
        let record = try AVCDecoderConfigurationRecord(bytes: payload)
        #expect(record.profileIndication == 244)
        let highExtension = try #require(record.highProfileExtension)
        #expect(highExtension.chromaFormat == 3)
        #expect(highExtension.bitDepthLumaMinus8 == 0 && highExtension.bitDepthChromaMinus8 == 0)
        #expect(record.bytes() == payload)
        // Built from its own SPS and PPS, the record is the same: the extension is written for 244 too.
        let built = try AVCDecoderConfigurationRecord(sequenceParameterSets: record.sequenceParameterSets,
                                                      pictureParameterSets: record.pictureParameterSets)
        #expect(built.bytes() == payload)
    }
}

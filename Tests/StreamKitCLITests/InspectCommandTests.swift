import Foundation
import Testing
import TestSupport

/// `streamkit inspect` as a user runs it: output shapes, exit codes, and bad input.
@Suite(.enabled(if: ExternalTool.isRunnable("ffprobe")))
struct InspectCommandTests {
    private func json(_ output: ExternalTool.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any])
    }

    @Test(.requiresMedia) func jsonForH264HasTheDocumentedShape() async throws {
        let path = MediaFiles.url("encoded/cars_320x240.h264").path
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", "--json", path])
        #expect(output.status == 0)
        let object = try json(output)
        #expect(object["codec"] as? String == "h264")
        #expect(object["profile"] as? String == "High")
        #expect(object["width"] as? Int == 320 && object["height"] as? Int == 240)
        let frames = try #require(object["frames"] as? [[String: Any]])
        // ffprobe is the oracle for the count and the key frame.
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames",
                                                      "-of", "csv=p=0", path])
        #expect(frames.count == Int(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let first = try #require(frames.first)
        #expect(first["index"] as? Int == 0 && first["type"] as? String == "I" && first["key"] as? Bool == true)
        #expect(first["nal_types"] as? [Int] == [7, 8, 6, 5])
        #expect((object["nal_units"] as? Int ?? 0) >= frames.count)
        // Keys appear in the documented order.
        let text = output.text
        let order = ["\"codec\"", "\"profile\"", "\"level\"", "\"width\"", "\"height\"", "\"frames\"", "\"nal_units\""]
            .compactMap { text.range(of: $0)?.lowerBound }
        #expect(order.count == 7 && order == order.sorted())
    }

    @Test(.requiresMedia) func jsonForADTS() async throws {
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", "--json", MediaFiles.url("audio/exoplayer/sample.adts").path])
        #expect(output.status == 0)
        let object = try json(output)
        #expect(object["codec"] as? String == "aac" && object["profile"] as? String == "LC")
        #expect(object["sample_rate"] as? Int == 44100 && object["channels"] as? Int == 1 && object["frames"] as? Int == 144)
    }

    @Test(.requiresMedia) func detectsFromBytesNotFromTheName() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let misnamed = directory.appendingPathComponent("actually-hevc.aac")
        try FileManager.default.copyItem(at: MediaFiles.url("encoded/cars_320x240.h265"), to: misnamed)
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", "--json", misnamed.path])
        #expect(try json(output)["codec"] as? String == "hevc")
    }

    @Test(.requiresMedia) func nalListingNamesEveryUnit() async throws {
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", "--nal", MediaFiles.url("encoded/cars_320x240.h265").path])
        #expect(output.status == 0)
        #expect(output.text.contains("VPS_NUT") && output.text.contains("IDR_W_RADL") && output.text.contains("tid 0"))
        let rows = output.text.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.split(separator: " ").first.flatMap { Int($0) } != nil }
        #expect(rows.count == 34)  // the NAL units ffmpeg's mp4 muxer counted for the same file (Bitstream tests)
    }

    @Test func randomBytesAreAClearErrorWithNonZeroExit() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let file = directory.appendingPathComponent("noise.bin")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<5000).map { _ in UInt8.random(in: 2...255, using: &generator) }).write(to: file)
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", file.path])
        #expect(output.status != 0)
        #expect(output.standardError.contains("not an H.264 or H.265 Annex B stream"))
    }

    @Test(.requiresMedia) func corruptParameterSetPrintsWhatWasReadThenTheError() async throws {
        // A real stream whose SPS claims level_idc 99 (byte 3 of the SPS NAL unit): every later slice
        // refers to a PPS that refers to the broken SPS.
        var bytes = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let startCode = try #require((0..<(bytes.count - 4)).first { (index: Int) -> Bool in
            let prefix = bytes[index] == 0 && bytes[index + 1] == 0 && bytes[index + 2] == 1
            return prefix && bytes[index + 3] & 0x1F == 7
        })
        let spsOffset = startCode + 3
        bytes[spsOffset + 3] = 99
        let directory = try ExternalTool.temporaryDirectory()
        let file = directory.appendingPathComponent("broken.h264")
        try Data(bytes).write(to: file)
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", file.path])
        #expect(output.status == 1)
        #expect(output.text.contains("H.264/AVC"))
        #expect(output.standardError.contains("level_idc"))
        #expect(output.standardError.contains("byte \(spsOffset)"))
    }

    @Test(.requiresMedia) func truncatedStreamReportsWhatItCouldRead() async throws {
        let bytes = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let directory = try ExternalTool.temporaryDirectory()
        let file = directory.appendingPathComponent("cut.h264")
        try Data(bytes.prefix(40)).write(to: file)  // SPS, PPS, then a few bytes of the SEI
        let output = try await ExternalTool.runProduct("streamkit", ["inspect", "--json", file.path])
        #expect(output.status == 1)
        let object = try json(output)
        #expect(object["width"] as? Int == 320)
        #expect((object["errors"] as? [String])?.isEmpty == false)
    }

    @Test(.requiresMedia) func missingFileAndUnknownOptionExitNonZero() async throws {
        #expect(try await ExternalTool.runProduct("streamkit", ["inspect", "/nonexistent.h264"]).status != 0)
        let unknown = try await ExternalTool.runProduct("streamkit", ["inspect", "--frobnicate", MediaFiles.url("encoded/cars_320x240.h264").path])
        #expect(unknown.status == 2 && unknown.standardError.contains("--frobnicate"))
    }
}

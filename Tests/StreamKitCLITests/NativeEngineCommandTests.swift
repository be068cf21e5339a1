import Foundation
import Testing
import TestSupport

/// `streamkit encode --engine native` in every build: `--recon` writes the encoder's own
/// reconstruction, which is what ffmpeg decodes from the stream, frame for frame; `engines` lists it.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg") || ProcessInfo.processInfo.environment["CI"] == "true"))
struct NativeEngineCommandTests {
    @Test("encode --engine native --recon: the .y4m's frames are ffmpeg's decode of the stream, md5 for md5")
    func reconstructionEqualsDecode() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let stream = directory.appendingPathComponent("native.h264").path, recon = directory.appendingPathComponent("recon.y4m").path
        let result = try CLI.run(["encode", "testsrc", "-o", stream, "--engine", "native", "--recon", recon, "--threads", "1",
                                  "--size", "176x144", "--frames", "45", "--bitrate", "300k", "--gop", "20"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("native: 45 frames"), "\(result.standardError)")
        let decoded = try await ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-err_detect", "explode", "-i", stream, "-f", "framemd5", "-"])
        #expect(decoded.status == 0 && decoded.standardError.isEmpty, "\(decoded.standardError)")
        let ours = try await ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-i", recon, "-f", "framemd5", "-"])
        let decodedHashes = CLI.frameHashes(decoded.text), ourHashes = CLI.frameHashes(ours.text)
        #expect(decodedHashes.count == 45)
        #expect(decodedHashes == ourHashes)
        let profile = try CLI.probe(stream, ["-show_entries", "stream=profile"])
        #expect(profile.first?["profile"] == "Constrained Baseline")
    }

    @Test("encode --engine native --threads 2: two slices a picture coded at once, ffmpeg's decode = --recon; auto and 0")
    func threads() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let stream = directory.appendingPathComponent("threads.h264").path, recon = directory.appendingPathComponent("recon.y4m").path
        let result = try CLI.run(["encode", "testsrc", "-o", stream, "--engine", "native", "--recon", recon, "--threads", "2",
                                  "--size", "320x240", "--frames", "12", "--qp", "28", "--gop", "10"])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stream)))
        // nal_unit_type of each NAL unit after a start code: 1 or 5 are slices, two per picture.
        var slices = 0
        for index in 3..<bytes.count where bytes[index - 1] == 1 && bytes[index - 2] == 0 && bytes[index - 3] == 0 {
            if [1, 5].contains(bytes[index] & 0x1F) { slices += 1 }
        }
        #expect(slices == 24, "\(slices) slices in 12 pictures")
        let decoded = try await ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-err_detect", "explode", "-i", stream, "-f", "framemd5", "-"])
        #expect(decoded.status == 0 && decoded.standardError.isEmpty, "\(decoded.standardError)")
        let ours = try await ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-i", recon, "-f", "framemd5", "-"])
        #expect(CLI.frameHashes(decoded.text).count == 12 && CLI.frameHashes(decoded.text) == CLI.frameHashes(ours.text))

        let automatic = try CLI.run(["encode", "testsrc", "-o", directory.appendingPathComponent("auto.h264").path, "--engine", "native",
                                     "--threads", "auto", "--size", "176x144", "--frames", "3"])
        #expect(automatic.status == 0, "\(automatic.standardError)")
        let refused = try CLI.run(["encode", "testsrc", "-o", directory.appendingPathComponent("zero.h264").path, "--threads", "0"])
        #expect(refused.status != 0 && refused.standardError.contains("--threads"), "\(refused.standardError)")
    }

    @Test("--recon needs the native engine; engines lists native")
    func reconNeedsNative() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let refused = try CLI.run(["encode", "testsrc", "-o", directory.appendingPathComponent("x.h264").path, "--engine", "x264",
                                   "--recon", directory.appendingPathComponent("r.y4m").path])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("--recon writes the native encoder's reconstruction"), "\(refused.standardError)")
        let engines = try CLI.run(["engines"])
        #expect(engines.text.contains("  native: encode h264, aac; decode h264, aac — pure-Swift H.264 encoder and decoder"), "\(engines.text)")
    }
}

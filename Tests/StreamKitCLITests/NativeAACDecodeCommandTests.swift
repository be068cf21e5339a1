import Foundation
import Testing
import TestSupport

/// `streamkit decode x.aac -o x.wav --engine native`: the pure-Swift AAC-LC decoder behind the CLI, in
/// every build; its 16-bit WAV is FFmpeg's 16-bit decoding of the stream within one step of rounding.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg") || ProcessInfo.processInfo.environment["CI"] == "true"))
struct NativeAACDecodeCommandTests {
    @Test("decode --engine native: a 5.1 ADTS stream to WAV, every sample within 1 of FFmpeg's s16 decoding")
    func decodesLikeFFmpeg() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.aac").path, output = directory.appendingPathComponent("out.wav").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.5", "-filter_complex",
                                          "[0]asplit=6[a][b][c][d][e][f];[a][b][c][d][e][f]join=inputs=6:channel_layout=5.1",
                                          "-c:a", "aac", "-b:a", "256k", "-f", "adts", input])
        let result = try CLI.run(["decode", input, "-o", output, "--engine", "native"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("native: "), "\(result.standardError)")
        let ours = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", output, "-f", "s16le", "-"]).standardOutput
        let theirs = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", input, "-f", "s16le", "-"]).standardOutput
        #expect(ours.count == theirs.count && !ours.isEmpty)
        let a = ours.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let b = theirs.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? .max
        print("decode --engine native 5.1: \(a.count) samples, largest difference \(worst)")
        #expect(worst <= 1)
    }

    @Test("decode a stream whose layout is in a program config element (channel_configuration 0): native and default engines")
    func programConfigElementLayout() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("pce.aac").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "aevalsrc=exprs='0.3*sin(2*PI*440*t)|0.3*sin(2*PI*660*t)':d=1",
                                          "-c:a", "aac", "-aac_pce", "1", "-f", "adts", input])
        let theirs = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", input, "-f", "s16le", "-"]).standardOutput
        for engine in [["--engine", "native"], []] {
            let output = directory.appendingPathComponent("out\(engine.count).wav").path
            let result = try CLI.run(["decode", input, "-o", output] + engine)
            #expect(result.status == 0, "\(engine): \(result.standardError)")
            let ours = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", output, "-f", "s16le", "-"]).standardOutput
            let a = ours.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            let b = theirs.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            #expect(a.count == b.count && !a.isEmpty, "\(engine)")
            #expect((zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? .max) <= 1, "\(engine)")
        }
    }
}

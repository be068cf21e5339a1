import Foundation
import Testing
import TestSupport

/// The native engine's AAC-LC as a browser plays it: `encode sine --engine native` into an MP4 file (a `<video>`
/// element) and into HLS fMP4 segments (Media Source Extensions, as hls.js appends them) in headless Chromium — each
/// played to its end without a media error, at its length — and FFmpeg decodes the same files with
/// `-err_detect explode` without a message.
@Suite(.enabled(if: BrowserPlayback.isRunnable && ExternalTool.isRunnable("ffmpeg")))
struct NativeAACBrowserPlaybackTests {
    /// Encodes 2 s of the sine generator with the native AAC encoder.
    static func encode(_ output: String, in folder: URL) throws {
        let result = try CLI.run(["encode", "sine", "-o", folder.appendingPathComponent(output).path, "--duration", "2", "--engine", "native"])
        #expect(result.status == 0, "\(result.standardError)")
        // Both tracks by the native engine, in every build (with FFmpeg built in, `--engine native` still reaches the audio).
        #expect(result.standardError.contains("native: "), "\(result.standardError)")
        #expect(!result.standardError.contains("aac: "), "\(result.standardError)")
    }

    @Test("encode sine --engine native -o x.m4a: Chromium plays the native AAC to the end; ffmpeg decodes it without a message")
    func mp4() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.encode("native.m4a", in: folder)
        let path = folder.appendingPathComponent("native.m4a").path
        let decoded = try ExternalTool.check("ffmpeg", ["-v", "warning", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
        #expect(decoded.standardError.isEmpty, "\(decoded.standardError)")
        // Served as .mp4, which the page's <video> element takes.
        try FileManager.default.copyItem(atPath: path, toPath: folder.appendingPathComponent("native.mp4").path)
        let report = try BrowserPlayback.play(.mp4("native.mp4"), in: folder).report
        #expect(report.done && report.errors.isEmpty, "\(report)")
        #expect(abs((report.duration ?? 0) - 2) < 0.1, "\(report)")
    }

    @Test("encode sine --engine native -o hls/x.m3u8: Chromium appends the fMP4 segments (MSE) and plays the native AAC to the end")
    func fragmentedSegments() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("hls"), withIntermediateDirectories: true)
        try Self.encode("hls/native.m3u8", in: folder)
        let playlist = folder.appendingPathComponent("hls/native.m3u8").path
        let decoded = try ExternalTool.check("ffmpeg", ["-v", "warning", "-err_detect", "explode", "-i", playlist, "-f", "null", "-"])
        #expect(decoded.standardError.isEmpty, "\(decoded.standardError)")
        let report = try BrowserPlayback.play(.hls(playlist: "hls/native.m3u8", codecs: nil), in: folder).report
        #expect(report.done && report.errors.isEmpty, "\(report)")
        #expect((report.codecs ?? "").contains("mp4a.40.2"), "\(report)")
        #expect((report.segments ?? 0) >= 1 && abs((report.duration ?? 0) - 2) < 0.1, "\(report)")
    }
}

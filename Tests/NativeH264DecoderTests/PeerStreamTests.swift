import Foundation
import MediaCore
import NativeH264
import NativeH264Decoder
import Testing
import TestSupport

/// Streams from encoders nobody here wrote (x264 in several Baseline option sets) and from our own
/// native encoder: the native decoder's frames must hash like ffmpeg's (`-f framemd5`), frame by frame.
@Suite("Native H.264 decoder: x264 and native encoder streams against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct PeerStreamTests {
    /// ffmpeg's per-frame MD5s of an Annex B file, decoded to yuv420p.
    static func ffmpegHashes(_ path: String) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-i", path, "-pix_fmt", "yuv420p", "-f", "framemd5", "-"])
        return FrameMD5.hashes(output.text)
    }

    /// Encodes 30 frames of a moving lavfi source with x264 and the given options.
    static func x264Stream(size: String, options: [String]) throws -> String {
        let directory = try ExternalTool.temporaryDirectory()
        let y4m = directory.appendingPathComponent("source.y4m").path
        try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25",
                                          "-frames:v", "30", "-pix_fmt", "yuv420p", "-y", y4m])
        let out = directory.appendingPathComponent("x264.264").path
        try ExternalTool.check("x264", ["--quiet", "--profile", "baseline", "--threads", "1"] + options + ["-o", out, y4m])
        return out
    }

    static let optionSets: [(String, [String])] = [
        ("176x144", ["--ref", "1"]),
        ("176x144", ["--ref", "4", "--qp", "30"]),
        ("176x144", ["--slices", "4"]),
        ("98x66", ["--ref", "3"]),
        ("176x144", ["--no-deblock"]),
        ("176x144", ["--keyint", "10", "--deblock", "-3:2"]),
        ("320x240", ["--ref", "2", "--slices", "3", "--qp", "45", "--chroma-qp-offset", "4"]),
        ("176x144", ["--preset", "slow", "--ref", "5", "--crf", "18"]),
    ]

    @Test("x264 --profile baseline: every frame equals ffmpeg's", arguments: optionSets.indices)
    func x264Baseline(_ index: Int) throws {
        let (size, options) = Self.optionSets[index]
        let path = try Self.x264Stream(size: size, options: options)
        let reference = try Self.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        #expect(ours.count == 30 && ours == reference, "\(size) \(options): \(ours.count) frames; first differing \(String(describing: zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
    }

    @Test("the native encoder's IDR + P stream: every frame equals ffmpeg's and the encoder's reconstruction")
    func nativeEncoder() throws {
        let raw = try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25",
                                                    "-frames:v", "20", "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
        let bytes = [UInt8](raw.standardOutput), frameBytes = 176 * 144 * 3 / 2
        var encoder = try NativeH264Encoder(width: 176, height: 144, quantisationParameter: 28, keyFrameInterval: 8)
        var stream = [UInt8](), reconstructions: [String] = []
        for offset in stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes) {
            let frame = try PixelBuffer(width: 176, height: 144, format: .i420, planes: [
                .init(bytes: Array(bytes[offset..<(offset + 25344)]), bytesPerRow: 176, rowLength: 176, rowCount: 144),
                .init(bytes: Array(bytes[(offset + 25344)..<(offset + 31680)]), bytesPerRow: 88, rowLength: 88, rowCount: 72),
                .init(bytes: Array(bytes[(offset + 31680)..<(offset + frameBytes)]), bytesPerRow: 88, rowLength: 88, rowCount: 72)])
            let picture = try encoder.encode(frame, forcingKeyFrame: false)
            stream += picture.annexB
            reconstructions.append(DecoderRun.md5(NativeH264DecodedFrame(picture: picture.reconstruction, timestamp: 0, pictureOrderCount: 0)))
        }
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("native.264").path
        try Data(stream).write(to: URL(fileURLWithPath: path))
        let reference = try Self.ffmpegHashes(path)
        let result = DecoderRun.decode(stream)
        #expect(result.errors.isEmpty)
        let ours = result.frames.map(DecoderRun.md5)
        #expect(ours.count == 20)
        #expect(ours == reference)
        #expect(ours == reconstructions)
    }
}

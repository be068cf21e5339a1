import Foundation
import MediaCore
import Testing
import TestSupport
@testable import Capture

/// The synthetic camera's pictures as real tools see them: ffprobe/ffmpeg read a Y4M we write by hand, and
/// ffmpeg's own YUV → RGB conversion of our raw NV12/NV21/I420 shows the colour bars in the right colours.
@Suite("Synthetic camera, checked with ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct SyntheticCameraOracleTests {
    /// Planar I420 bytes of a picture (the Y4M `C420jpeg` frame layout), de-interleaving NV12/NV21 chroma.
    static func i420Bytes(_ picture: PixelBuffer) -> [UInt8] {
        let luma = picture.planes[0].packedBytes
        switch picture.format {
        case .i420: return picture.packedBytes
        case .yv12: return luma + picture.planes[2].packedBytes + picture.planes[1].packedBytes
        case .nv12, .nv21:
            let pairs = picture.planes[1].packedBytes
            let first = stride(from: 0, to: pairs.count, by: 2).map { pairs[$0] }
            let second = stride(from: 1, to: pairs.count, by: 2).map { pairs[$0] }
            return picture.format == .nv12 ? luma + first + second : luma + second + first
        }
    }

    @Test("ffprobe reads 30 synthetic frames of the right size from a hand-written Y4M; ffmpeg decodes them back exactly")
    func y4mOracle() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let camera = try SyntheticCamera(width: 320, height: 240, frameRate: 30, realTime: false, frameLimit: 30)
        // YUV4MPEG2 stream header and FRAME markers, as the format defines them.
        var y4m = Array("YUV4MPEG2 W320 H240 F30:1 Ip A1:1 C420jpeg\n".utf8)
        var nv12Frames: [[UInt8]] = []
        while let frame = try await camera.nextFrame() {
            y4m += Array("FRAME\n".utf8) + Self.i420Bytes(frame.pixelBuffer)
            nv12Frames.append(frame.pixelBuffer.packedBytes)
        }
        #expect(nv12Frames.count == 30)
        let path = directory.appendingPathComponent("camera.y4m").path
        try Data(y4m).write(to: URL(fileURLWithPath: path))

        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                       "-show_entries", "stream=width,height,nb_read_frames,pix_fmt",
                                                       "-of", "default=noprint_wrappers=1", path])
        let fields = Dictionary(uniqueKeysWithValues: probe.text.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
        #expect(fields["width"] == "320")
        #expect(fields["height"] == "240")
        #expect(fields["nb_read_frames"] == "30")
        #expect(fields["pix_fmt"] == "yuvj420p" || fields["pix_fmt"] == "yuv420p")

        // ffmpeg turns the Y4M into raw NV12: every frame equals what the camera delivered.
        let raw = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "nv12", "-"])
        let frameSize = 320 * 240 * 3 / 2
        #expect(raw.standardOutput.count == 30 * frameSize)
        let decoded = [UInt8](raw.standardOutput)
        for index in 0..<min(30, decoded.count / frameSize) {
            #expect(Array(decoded[(index * frameSize)..<((index + 1) * frameSize)]) == nv12Frames[index], "frame \(index)")
        }
    }

    @Test("ffmpeg shows the colour bars in their colours", arguments: [PixelFormat.nv12, .nv21, .i420])
    func colourBars(format: PixelFormat) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let width = 320, height = 240
        let picture = try SyntheticCamera(width: width, height: height, format: format, realTime: false).frame(at: 0).pixelBuffer
        let path = directory.appendingPathComponent("frame.yuv").path
        try Data(picture.packedBytes).write(to: URL(fileURLWithPath: path))
        let output = try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", format.ffmpegName,
                                                       "-s", "\(width)x\(height)", "-i", path,
                                                       "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let rgb = [UInt8](output.standardOutput)
        try #require(rgb.count == width * height * 3)
        // 100 % colour bars, left to right (the usual order of the test pattern, SMPTE/EBU bars).
        let expected: [(String, [Int])] = [("white", [255, 255, 255]), ("yellow", [255, 255, 0]), ("cyan", [0, 255, 255]),
                                           ("green", [0, 255, 0]), ("magenta", [255, 0, 255]), ("red", [255, 0, 0]),
                                           ("blue", [0, 0, 255]), ("black", [0, 0, 0])]
        let y = height / 2  // inside the bars band, below the text panel; frame 0's box is bottom-left, in the ramp
        for (bar, (name, colour)) in expected.enumerated() {
            let x = (2 * bar + 1) * width / 16
            let offset = (y * width + x) * 3
            let seen = (0..<3).map { Int(rgb[offset + $0]) }
            let close = zip(seen, colour).allSatisfy { abs($0 - $1) <= 10 }
            #expect(close, "\(format) bar \(bar) should be \(name) \(colour), ffmpeg shows \(seen)")
        }
    }
}

import Capture
import Containers
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport

/// The oracle: FFmpeg decodes our stream with `-err_detect explode` (any bitstream error fails), and
/// the md5 of every decoded frame equals the md5 of the encoder's own reconstruction of that frame.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct IntraEncoderBitExactnessTests {
    /// Encodes `frames`, then has ffmpeg hash the decoded stream and our reconstruction frame by frame.
    @discardableResult
    func expectBitExact(_ frames: [PixelBuffer], qp: Int, label: String) throws -> NativeH264Encoder.MacroblockTypeCounts {
        let width = frames[0].width, height = frames[0].height
        var encoder = try NativeH264Encoder(width: width, height: height, quantisationParameter: qp)
        var stream = [UInt8](), reconstruction = [UInt8]()
        var types = NativeH264Encoder.MacroblockTypeCounts()
        for frame in frames {
            let picture = try encoder.encode(frame)
            types.intra16x16 += picture.macroblockTypes.intra16x16
            types.intra4x4 += picture.macroblockTypes.intra4x4
            stream += picture.annexB
            reconstruction += picture.reconstruction.packedBytes
        }
        try ReconstructionOracle.expectDecodes(stream, toReconstruction: reconstruction, width: width, height: height,
                                               frames: frames.count, label: label)
        return types
    }

    static func cameraFrames(width: Int, height: Int, count: Int) async throws -> [PixelBuffer] {
        let camera = try SyntheticCamera(width: width, height: height, frameRate: 30, format: .nv12, realTime: false, frameLimit: count)
        var frames = [PixelBuffer]()
        while let frame = try await camera.nextFrame() { frames.append(frame.pixelBuffer) }
        return frames
    }

    @Test("synthetic camera: ffmpeg decodes every frame bit-exactly", arguments: [(16, 16), (176, 144), (50, 30), (640, 480)], [10, 26, 40, 51])
    func syntheticCamera(size: (Int, Int), qp: Int) async throws {
        let frames = try await Self.cameraFrames(width: size.0, height: size.1, count: size.0 > 200 ? 1 : 3)
        try expectBitExact(frames, qp: qp, label: "camera \(size.0)x\(size.1) QP \(qp)")
    }

    @Test("foreman QCIF: ffmpeg decodes every frame bit-exactly", .requiresMedia, arguments: [0, 10, 26, 40, 51])
    func foreman(qp: Int) throws {
        var reader = try Y4MReader(path: MediaFiles.url("sequences/foreman_qcif8.y4m").path)
        var frames = [PixelBuffer]()
        while frames.count < 4, let frame = try reader.nextFrame() { frames.append(frame) }
        let types = try expectBitExact(frames, qp: qp, label: "foreman QP \(qp)")
        // A natural picture takes both macroblock types, so both paths are under the oracle.
        if qp <= 40 { #expect(types.intra4x4 > 0 && types.intra16x16 > 0, "\(types)") }
    }

    /// Diagonal stripes make the diagonal 4x4 modes win, including in the blocks whose top-right
    /// samples are not available (substituted by p[3, −1], §8.3.1.2) and at the right picture edge.
    @Test("diagonal stripes: the diagonal Intra_4x4 modes decode bit-exactly", arguments: [10, 26, 34])
    func diagonalStripes(qp: Int) throws {
        let width = 64, height = 48
        var frames = [PixelBuffer]()
        for shift in 0..<2 {
            var luma = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { luma[y * width + x] = ((x + y + shift) / 3) % 2 == 0 ? 40 : 210 } }
            let chroma = [UInt8](repeating: 128, count: width * height / 4)
            let planes = [PixelBuffer.Plane(bytes: luma, bytesPerRow: width, rowLength: width, rowCount: height),
                          PixelBuffer.Plane(bytes: chroma, bytesPerRow: width / 2, rowLength: width / 2, rowCount: height / 2),
                          PixelBuffer.Plane(bytes: chroma, bytesPerRow: width / 2, rowLength: width / 2, rowCount: height / 2)]
            frames.append(try PixelBuffer(width: width, height: height, format: .i420, planes: planes))
        }
        let types = try expectBitExact(frames, qp: qp, label: "stripes QP \(qp)")
        #expect(types.intra4x4 > 0, "\(types)")
    }

    @Test("ffprobe reads Constrained Baseline, the level, the size and the cropping", .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func ffprobeReadsTheStream() async throws {
        let frames = try await Self.cameraFrames(width: 50, height: 30, count: 1)
        var encoder = try NativeH264Encoder(width: 50, height: 30, quantisationParameter: 26, framesPerSecond: 25)
        let stream = try encoder.encode(frames[0]).annexB
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("native-h264-\(UUID().uuidString).h264").path
        try Data(stream).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let probe = try await ExternalTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                     "stream=codec_name,profile,level,width,height,pix_fmt,r_frame_rate", "-of", "default=nw=1", path])
        #expect(probe.status == 0, "\(probe.standardError)")
        let fields = Set(probe.text.split(separator: "\n").map(String.init))
        // 8 macroblocks at 25 frames per second: level 1 (Table A-1); the VUI's timing gives 25 fps.
        #expect(fields.isSuperset(of: ["codec_name=h264", "profile=Constrained Baseline", "level=10", "width=50", "height=30",
                                       "pix_fmt=yuv420p", "r_frame_rate=25/1"]),
                "\(fields)")
    }

    @Test("the encoder refuses odd sizes and QPs outside 0…51")
    func refusals() {
        #expect(throws: NativeH264EncoderError.unsupportedSize(width: 51, height: 30)) {
            try NativeH264Encoder(width: 51, height: 30, quantisationParameter: 26)
        }
        #expect(throws: NativeH264EncoderError.quantisationParameterOutOfRange(52)) {
            try NativeH264Encoder(width: 16, height: 16, quantisationParameter: 52)
        }
    }
}

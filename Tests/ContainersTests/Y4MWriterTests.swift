import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// Y4MWriter checked by ffprobe/ffmpeg: the file we write has the right size, frame count and rate,
/// and its frames hash (ffmpeg framemd5) like the source's.
@Suite("Y4MWriter")
struct Y4MWriterTests {
    /// The MD5 column of `ffmpeg -f framemd5` for a file's video frames.
    static func frameMD5s(_ path: String) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test("Foreman through NV12 and back: ffprobe reads size, rate and count; framemd5 equals the source's", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func roundTripThroughNV12() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = MediaFiles.url("sequences/foreman_cif8.y4m").path
        let out = directory.appendingPathComponent("out.y4m").path
        var reader = try Y4MReader(path: source)
        var writer = try Y4MWriter(path: out, header: Y4MHeader(width: reader.header.width, height: reader.header.height,
                                                                 frameRate: Y4MRatio(30000, 1001)))
        var index = 0
        while let frame = try reader.nextFrame() {
            // Alternate layouts and padded strides: the writer must convert and drop the padding.
            let formats: [PixelFormat] = [.nv12, .nv21, .yv12, .i420]
            try writer.write(frame.converted(to: formats[index % 4], rowAlignment: index % 2 == 0 ? 64 : 1))
            index += 1
        }
        try writer.finish()
        #expect(writer.frameCount == 8)

        let probed = try Y4MReaderTests.probe(out)
        #expect(probed["width"] == "352")
        #expect(probed["height"] == "288")
        #expect(probed["r_frame_rate"] == "30000/1001")
        #expect(probed["nb_read_frames"] == "8")
        let ours = try Self.frameMD5s(out)
        #expect(ours.count == 8)
        #expect(ours == (try Self.frameMD5s(source)))
    }

    @Test("full range is written as XCOLORRANGE=FULL, which ffprobe reports as pc", .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func colorRange() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("range.y4m").path
        var writer = try Y4MWriter(path: out, header: Y4MHeader(width: 17, height: 9, frameRate: Y4MRatio(25, 1),
                                                                 pixelAspectRatio: Y4MRatio(1, 1), colorRange: .full))
        try writer.write(PixelBuffer(width: 17, height: 9, format: .nv12, range: .full))
        try writer.finish()
        let probed = try Y4MReaderTests.probe(out)
        #expect(probed["color_range"] == "pc")
        #expect(probed["width"] == "17" && probed["height"] == "9")
        #expect(probed["nb_read_frames"] == "1")
    }

    @Test("in memory: header text, frame layout, misuse errors")
    func memoryAndErrors() throws {
        var writer = try Y4MWriter(sink: MemoryByteSink(), header: Y4MHeader(width: 3, height: 1, frameRate: Y4MRatio(30, 1)))
        let luma = PixelBuffer.Plane(bytes: [1, 2, 3], bytesPerRow: 3, rowLength: 3, rowCount: 1)
        let chroma = PixelBuffer.Plane(bytes: [4, 5, 6, 7], bytesPerRow: 4, rowLength: 4, rowCount: 1)
        try writer.write(try PixelBuffer(width: 3, height: 1, format: .nv12, planes: [luma, chroma]))
        #expect(throws: ContainerWriteError.frameMismatch(frameIndex: 1, reason: "picture is 2x1, stream is 3x1")) {
            try writer.write(PixelBuffer(width: 2, height: 1, format: .i420))
        }
        try writer.finish()
        try writer.finish()
        #expect(throws: ContainerWriteError.alreadyFinished) { try writer.write(PixelBuffer(width: 3, height: 1, format: .i420)) }
        // YUV4MPEG2: header line, "FRAME\n", then Y, then Cb (U), then Cr (V) planes.
        #expect(writer.sink.bytes == Array("YUV4MPEG2 W3 H1 F30:1 Ip C420jpeg\nFRAME\n".utf8) + [1, 2, 3, 4, 6, 5, 7])
        #expect(writer.sink.isClosed)

        #expect(throws: ContainerWriteError.invalidConfiguration("Y4M frame rate 0:1 must be positive")) {
            try Y4MWriter(sink: MemoryByteSink(), header: Y4MHeader(width: 3, height: 1, frameRate: Y4MRatio(0, 1)))
        }
        #expect(throws: ContainerWriteError.invalidConfiguration("Y4M size 0x1 outside 1...16384")) {
            try Y4MWriter(sink: MemoryByteSink(), header: Y4MHeader(width: 0, height: 1, frameRate: nil))
        }
        #expect(throws: ContainerWriteError.self) {
            try Y4MWriter(sink: MemoryByteSink(), header: Y4MHeader(width: 2, height: 2, frameRate: nil, extensions: ["A B"]))
        }
    }

    @Test("what we write, we read back")
    func roundTripInMemory() throws {
        let header = Y4MHeader(width: 5, height: 3, frameRate: Y4MRatio(24000, 1001), interlacing: .bottomFieldFirst,
                               pixelAspectRatio: Y4MRatio(4, 3), colorSpace: .yuv420paldv, colorRange: .video, extensions: ["FOO=1"])
        var writer = try Y4MWriter(sink: MemoryByteSink(), header: header)
        let picture = try PixelBuffer(packed: Array(0..<27), width: 5, height: 3, format: .i420)
        try writer.write(picture)
        try writer.finish()
        var reader = try Y4MReader(data: writer.sink.bytes)
        #expect(reader.header == header)
        #expect(try reader.nextFrame() == picture)
    }
}

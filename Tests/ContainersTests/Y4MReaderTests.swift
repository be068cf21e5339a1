import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// Y4MReader against ffmpeg: the frames we read must equal ffmpeg's raw yuv420p output of the same file.
@Suite("Y4MReader")
struct Y4MReaderTests {
    static let foreman = "sequences/foreman_cif8.y4m"

    /// ffmpeg's decoding of a y4m (or any input) to raw yuv420p frames of `frameSize` bytes.
    static func ffmpegFrames(_ path: String, frameSize: Int) throws -> [[UInt8]] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let bytes = [UInt8](output.standardOutput)
        try #require(bytes.count % frameSize == 0, "ffmpeg wrote \(bytes.count) bytes, not whole frames of \(frameSize)")
        return stride(from: 0, to: bytes.count, by: frameSize).map { Array(bytes[$0..<($0 + frameSize)]) }
    }

    /// The stream parameters ffprobe reports.
    static func probe(_ path: String) throws -> [String: String] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                        "stream=width,height,r_frame_rate,sample_aspect_ratio,nb_read_frames,color_range",
                                                        "-of", "default=noprint_wrappers=1", path])
        var values: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return values
    }

    @Test("Foreman CIF: header as ffprobe reports it, frames equal ffmpeg's yuv420p", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func foremanMatchesFFmpeg() throws {
        let path = MediaFiles.url(Self.foreman).path
        var reader = try Y4MReader(path: path)
        let probed = try Self.probe(path)
        #expect("\(reader.header.width)" == probed["width"])
        #expect("\(reader.header.height)" == probed["height"])
        let rate = try #require(reader.header.frameRate)
        #expect("\(rate.numerator)/\(rate.denominator)" == probed["r_frame_rate"])
        let aspect = try #require(reader.header.pixelAspectRatio)
        #expect("\(aspect.numerator):\(aspect.denominator)" == probed["sample_aspect_ratio"])
        #expect(reader.header.interlacing == .progressive)
        #expect(reader.header.colorSpace == .yuv420jpeg)

        let expected = try Self.ffmpegFrames(path, frameSize: reader.header.frameByteCount)
        #expect("\(expected.count)" == probed["nb_read_frames"])
        var count = 0
        while let frame = try reader.nextFrame() {
            #expect(frame.format == .i420 && frame.width == 352 && frame.height == 288)
            #expect(count < expected.count && frame.packedBytes == expected[count], "frame \(count)")
            count += 1
        }
        #expect(count == expected.count)
        #expect(try reader.nextFrame() == nil)
    }

    @Test("a source handing out one byte at a time gives the same frames", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func byteAtATime() throws {
        let path = MediaFiles.url("sequences/foreman_qcif8.y4m").path
        var reader = try Y4MReader(source: TrickleSource(bytes: try MediaFiles.bytes("sequences/foreman_qcif8.y4m")))
        let expected = try Self.ffmpegFrames(path, frameSize: reader.header.frameByteCount)
        var frames: [[UInt8]] = []
        while let frame = try reader.nextFrame() { frames.append(frame.packedBytes) }
        #expect(frames == expected)
    }

    @Test("odd sizes, 4:2:0 siting variants and colour range from ffmpeg-made files", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func oddSizeAndRange() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = MediaFiles.url("sequences/foreman_qcif8.y4m").path
        let out = directory.appendingPathComponent("odd.y4m").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", source, "-vf", "crop=175:143:0:0:exact=1,setparams=range=pc",
                                          "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", "-y", out])
        var reader = try Y4MReader(path: out)
        #expect(reader.header.width == 175 && reader.header.height == 143)
        #expect(reader.header.colorRange == .full)
        let expected = try Self.ffmpegFrames(out, frameSize: reader.header.frameByteCount)
        var count = 0
        while let frame = try reader.nextFrame() {
            #expect(frame.range == .full)
            #expect(frame.packedBytes == expected[count])
            count += 1
        }
        #expect(count == 8)
    }

    @Test("4:2:2, 4:4:4 and mono files are refused, naming the C parameter", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: [("yuv422p", "422"), ("yuv444p", "444"), ("gray", "mono")])
    func unsupportedColorSpaces(pixelFormat: String, name: String) async throws {
        let output = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", MediaFiles.url("sequences/foreman_qcif8.y4m").path,
                                                       "-frames:v", "1", "-pix_fmt", pixelFormat, "-strict", "-1",
                                                       "-f", "yuv4mpegpipe", "-"])
        let bytes = [UInt8](output.standardOutput)
        let header = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        let offset = try #require(header.range(of: " C\(name)")).lowerBound.utf16Offset(in: header) + 1
        #expect(throws: Y4MError.unsupportedColorSpace(name, byteOffset: offset)) { try Y4MReader(data: bytes) }
    }

    @Test("a file cut inside frame 5 yields frames 0–4, then an error naming frame 5 and its offset", .requiresMedia)
    func truncatedFrame() throws {
        let bytes = try MediaFiles.bytes(Self.foreman)
        // Layout from the YUV4MPEG2 format: header line, then per frame "FRAME\n" + 352*288*3/2 bytes.
        let headerLength = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let frameSize = 352 * 288 * 3 / 2
        let frame5 = headerLength + 5 * (6 + frameSize)
        let cut = frame5 + 6 + 1000
        var reader = try Y4MReader(data: Array(bytes[..<cut]))
        for index in 0..<5 {
            let frame = try reader.nextFrame()
            #expect(frame != nil, "frame \(index)")
        }
        #expect(throws: Y4MError.truncatedFrame(frameIndex: 5, byteOffset: frame5, expectedBytes: frameSize, availableBytes: 1000)) {
            try reader.nextFrame()
        }
        #expect(try reader.nextFrame() == nil)

        var headerCut = try Y4MReader(data: Array(bytes[..<(frame5 + 3)]))
        for _ in 0..<5 { _ = try headerCut.nextFrame() }
        #expect(throws: Y4MError.truncatedFrameHeader(frameIndex: 5, byteOffset: frame5)) { try headerCut.nextFrame() }
    }

    @Test("stream header parameters: X ignored, FRAME parameters accepted, bad values named")
    func headerParsing() throws {
        // W2 H2: one frame is 4 luma + 1 + 1 chroma bytes (4:2:0).
        let good = Array("YUV4MPEG2 W2 H2 F25:1 It A0:0 C420mpeg2 XYSCSS=420MPEG2 Zunknown\nFRAME Ixyz\n".utf8) + [1, 2, 3, 4, 5, 6]
        var reader = try Y4MReader(data: good)
        #expect(reader.header.frameRate == Y4MRatio(25, 1))
        #expect(reader.header.interlacing == .topFieldFirst)
        #expect(reader.header.pixelAspectRatio == nil)
        #expect(reader.header.colorSpace == .yuv420mpeg2)
        #expect(reader.header.extensions == ["YSCSS=420MPEG2"])
        #expect(try reader.nextFrame()?.packedBytes == [1, 2, 3, 4, 5, 6])
        #expect(try reader.nextFrame() == nil)

        #expect(throws: Y4MError.missingSignature) { try Y4MReader(data: Array("RIFF....WAVE".utf8)) }
        #expect(throws: Y4MError.missingSignature) { try Y4MReader(data: []) }
        #expect(throws: Y4MError.missingParameter(tag: "W")) { try Y4MReader(data: Array("YUV4MPEG2 H2\n".utf8)) }
        #expect(throws: Y4MError.invalidParameter(tag: "W", value: "0", byteOffset: 10, reason: "expected an integer in 1...16384")) {
            try Y4MReader(data: Array("YUV4MPEG2 W0 H2\n".utf8))
        }
        #expect(throws: Y4MError.invalidParameter(tag: "F", value: "25", byteOffset: 16, reason: "expected two integers n:d")) {
            try Y4MReader(data: Array("YUV4MPEG2 W2 H2 F25\n".utf8))
        }
        #expect(throws: Y4MError.invalidParameter(tag: "I", value: "x", byteOffset: 16, reason: "expected p, t, b, m or ?")) {
            try Y4MReader(data: Array("YUV4MPEG2 W2 H2 Ix\n".utf8))
        }
        #expect(throws: Y4MError.truncatedHeader(byteOffset: 15)) { try Y4MReader(data: Array("YUV4MPEG2 W2 H2".utf8)) }
        var garbage = try Y4MReader(data: Array("YUV4MPEG2 W2 H2\nFRAMX\n".utf8))
        #expect(throws: Y4MError.invalidFrameHeader(frameIndex: 0, byteOffset: 16)) { try garbage.nextFrame() }
    }

    @Test("a missing file is an I/O error naming the path")
    func missingFile() {
        #expect(throws: Y4MError.io(ContainerIOError(operation: .open, path: "/nonexistent/x.y4m", code: ENOENT))) {
            try Y4MReader(path: "/nonexistent/x.y4m")
        }
    }
}

/// A source that hands out one byte per read, to exercise every buffer boundary.
struct TrickleSource: ByteSource {
    var bytes: [UInt8]
    var position = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard position < bytes.count, buffer.count > 0 else { return 0 }
        buffer[0] = bytes[position]
        position += 1
        return 1
    }

    var remainingByteCount: Int? { nil }
}

#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// FFmpeg's H.264/H.265 decoders through the engine: the pictures must be bit-exact with
/// `ffmpeg -i stream -f framemd5 -pix_fmt yuv420p` (same library, so any difference is ours).
@Suite("FFmpeg engine: video decoder", .enabled(if: FFmpegTestSupport.toolsAvailable))
struct FFmpegVideoDecoderTests {
    /// Decodes every access unit of an Annex B file with our decoder.
    static func decode(_ bytes: [UInt8], codec: CodecType, engine: String, output: PixelFormat = .i420) throws -> [DecodedPicture] {
        let frames = FFmpegTestSupport.encodedFrames(annexB: bytes, codec: codec)
        let decoder = try FFmpegTestSupport.engine(engine).makeVideoDecoder(frames[0].format, output: output)
        var pictures: [DecodedPicture] = []
        for frame in frames { pictures += try decoder.decode(frame) }
        return pictures + (try decoder.flush())
    }

    /// Our pictures against ffmpeg's own decode of the same file, frame by frame.
    static func expectBitExact(file url: URL, codec: CodecType, engine: String) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let pictures = try decode(bytes, codec: codec, engine: engine)
        let reference = try FFmpegTestSupport.frameMD5s(["-i", url.path, "-pix_fmt", "yuv420p"])
        let ours = try FFmpegTestSupport.frameMD5s(of: pictures.map(\.picture))
        #expect(!reference.isEmpty)
        #expect(ours.count == reference.count, "\(ours.count) pictures, ffmpeg decodes \(reference.count)")
        if let mismatch = zip(ours, reference).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("\(url.lastPathComponent): picture \(mismatch.offset) differs from ffmpeg's")
        }
    }

    @Test("JVT conformance BA_MW_D (Constrained Baseline) is bit-exact with ffmpeg", .requiresMedia)
    func baselineConformance() throws {
        try Self.expectBitExact(file: MediaFiles.url("h264-conformance/jvt-avc-v1/BA_MW_D.264"), codec: .h264, engine: "x264")
    }

    @Test("JVT FRExt conformance (High, CABAC, B, 8x8, scaling lists; PAFF fields) is bit-exact with ffmpeg", .requiresMedia,
          arguments: ["HCAFR1_HHI.264", "FRExt1_Panasonic.avc", "HCAFF1_HHI.264"])
    func frextConformance(name: String) throws {
        try Self.expectBitExact(file: MediaFiles.url("h264-conformance/jvt-frext/\(name)"), codec: .h264, engine: "x264")
    }

    @Test("an x265 stream (made here by the x265 tool, with B-frames) is bit-exact with ffmpeg", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("x265")))
    func x265Stream() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let output = directory.appendingPathComponent("cars.h265")
        try await ExternalTool.check("x265", ["--input", MediaFiles.url("sequences/cars_320x240.i420").path,
                                        "--input-res", "320x240", "--fps", "30", "--frames", "20", "--bframes", "3",
                                        "--keyint", "10", "--log-level", "error", "--output", output.path])
        try Self.expectBitExact(file: output, codec: .hevc, engine: "x265")
    }

    @Test("a real H.265 stream with CRA/RASL pictures and an end-of-sequence NAL is bit-exact with ffmpeg", .requiresMedia)
    func hevcSample() throws {
        try Self.expectBitExact(file: MediaFiles.url("encoded/cars_320x240.h265"), codec: .hevc, engine: "x265")
    }

    @Test("round trip through our x264 encoder: display order, pts kept, every layout bit-exact",
          arguments: PixelFormat.allCases)
    func roundTrip(output: PixelFormat) throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.maxBFrames = 3
        configuration.maxKeyFrameInterval = 15
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 30, timescale: 600)
        // Parameter sets only in the FormatDescription: strip them from the frames.
        let stripped = frames.map { frame -> EncodedFrame in
            var copy = frame
            copy.data = []
            for range in frame.nalUnitRanges where ![7, 8].contains(frame.data[range.lowerBound] & 0x1F) {
                let size = range.count
                copy.data += [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                copy.data += frame.data[range]
            }
            return copy
        }
        let decoder = try FFmpegTestSupport.engine("x264").makeVideoDecoder(frames[0].format, output: output)
        var pictures: [DecodedPicture] = []
        for frame in stripped { pictures += try decoder.decode(frame) }
        pictures += try decoder.flush()
        #expect(pictures.map(\.pts) == (0..<30).map { MediaTime(value: Int64($0) * 20, timescale: 600) })
        #expect(pictures.allSatisfy { $0.picture.format == output && $0.picture.width == 320 && $0.picture.height == 240 })

        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "roundtrip.h264")
        let reference = try FFmpegTestSupport.frameMD5s(["-i", url.path, "-pix_fmt", "yuv420p"])
        let raw = pictures.flatMap(\.picture.packedBytes)
        let rawURL = try FFmpegTestSupport.write(raw, name: "decoded.yuv")
        let ours: [String]
        if output == .yv12 {
            // ffmpeg has no YV12: swap the chroma planes back and hash as yuv420p.
            let swapped = pictures.flatMap { decoded -> [UInt8] in
                let planes = decoded.picture.planes
                return planes[0].packedBytes + planes[2].packedBytes + planes[1].packedBytes
            }
            let swappedURL = try FFmpegTestSupport.write(swapped, name: "decoded-i420.yuv")
            ours = try FFmpegTestSupport.frameMD5s(["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240", "-i", swappedURL.path])
        } else {
            ours = try FFmpegTestSupport.frameMD5s(["-f", "rawvideo", "-pix_fmt", output.ffmpegName, "-s", "320x240",
                                                   "-i", rawURL.path, "-pix_fmt", "yuv420p"])
        }
        #expect(ours == reference)

        // And the decoded chroma is the source's, not swapped: U and V differ in the synthetic picture.
        let source = FFmpegTestSupport.planes(index: 0, width: 320, height: 240)
        let first = try #require(pictures.first?.picture)
        let i420 = first.packedBytes
        let decodedU: [UInt8]
        switch output {
        case .i420: decodedU = Array(i420[(320 * 240)..<(320 * 240 + 160 * 120)])
        case .yv12: decodedU = first.planes[2].packedBytes
        case .nv12, .nv21:
            let pairs = first.planes[1].packedBytes
            decodedU = stride(from: output == .nv12 ? 0 : 1, to: pairs.count, by: 2).map { pairs[$0] }
        }
        let error = zip(decodedU, source.u).map { abs(Int($0) - Int($1)) }.reduce(0, +) / decodedU.count
        #expect(error < 6, "mean U error \(error)")
    }

    @Test("malformed AVCC framing is a typed error naming where, not a crash; garbage does not crash")
    func badInput() throws {
        let format = FormatDescription(codec: .h264, width: 0, height: 0,
                                   profileLevel: ProfileLevel(codec: .h264, profileNamed: "", level: nil), parameterSets: [])
        let decoder = try FFmpegTestSupport.engine("x264").makeVideoDecoder(format, output: .i420)
        let truncated = EncodedFrame(data: [0, 0, 0, 50, 0x65, 1, 2], isKeyFrame: true, pts: .zero, dts: .zero,
                                     duration: MediaTime(value: 1, timescale: 30), format: format)
        #expect {
            _ = try decoder.decode(truncated)
        } throws: { error in
            guard case .inputMismatch(let text) = error as? CodecError else { return false }
            return text.contains("#0")
        }
        var state: UInt32 = 7
        for index in 0..<20 {
            var bytes: [UInt8] = [0, 0, 0, 60]
            for _ in 0..<60 { state = state &* 1_103_515_245 &+ 12345; bytes.append(UInt8(truncatingIfNeeded: state >> 16)) }
            let frame = EncodedFrame(data: bytes, isKeyFrame: false, pts: MediaTime(value: Int64(index), timescale: 30),
                                     dts: .zero, duration: MediaTime(value: 1, timescale: 30), format: format)
            _ = try? decoder.decode(frame)
        }
        _ = try? decoder.flush()
        let hevc = FormatDescription(codec: .hevc, width: 0, height: 0,
                                   profileLevel: ProfileLevel(codec: .hevc, profileNamed: "", level: nil), parameterSets: [])
        #expect(throws: CodecError.self) { _ = try decoder.decode(EncodedFrame(data: [], isKeyFrame: false, pts: .zero, dts: .zero, duration: .zero, format: hevc)) }
    }
}
#endif

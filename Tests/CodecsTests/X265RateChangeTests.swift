#if FFmpeg
import Codecs
import Containers
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// A live x265 session changes its bit rate: libx265 cannot while open, so the engine drains it and opens it again
/// with the new rate at the next picture, which is a key frame. On noise (content that fills any rate) the bytes per
/// picture follow the new rate, and the whole stream decodes in ffmpeg.
@Suite(.enabled(if: FFmpegTestSupport.toolsAvailable))
struct X265RateChangeTests {
    /// 30 pictures of noise, I420.
    private static func noise(width: Int, height: Int) throws -> [PixelBuffer] {
        var random = SplitMix64(seed: 265)
        return try (0..<30).map { _ in
            func plane(_ columns: Int, _ rows: Int) -> PixelBuffer.Plane {
                let bytes = (0..<columns * rows).map { _ in UInt8(16 + random.next() % 220) }
                return PixelBuffer.Plane(bytes: bytes, bytesPerRow: columns, rowLength: columns, rowCount: rows)
            }
            return try PixelBuffer(width: width, height: height, format: .i420,
                                   planes: [plane(width, height), plane(width / 2, height / 2), plane(width / 2, height / 2)])
        }
    }

    @Test func aLiveX265SessionFollowsANewBitRate() async throws {
        var configuration = CompressionConfiguration(codec: .hevc, width: 160, height: 120)
        configuration.averageBitRate = 2_000_000
        configuration.maxKeyFrameInterval = 300
        configuration.realTime = true
        let session = try CompressionSession(configuration: configuration)
        let collected = Task { () -> [EncodedFrame] in
            var frames: [EncodedFrame] = []
            for await output in session.outputs { if case let .frame(frame) = output { frames.append(frame) } }
            return frames
        }
        let pictures = try Self.noise(width: 160, height: 120)
        let second = MediaTime(value: 1, timescale: 30)
        for index in 0..<120 {
            if index == 60 { try await session.setRateControl(averageBitRate: 200_000, dataRateLimits: []) }
            try await session.encode(pictures[index % 30], pts: MediaTime(value: Int64(index), timescale: 30), duration: second)
        }
        _ = try await session.close()
        let frames = await collected.value

        #expect(frames.count == 120)
        let keyFrames = frames.indices.filter { frames[$0].isKeyFrame }
        #expect(keyFrames == [0, 60], "the new rate starts at a key frame: \(keyFrames)")
        let before = frames[30..<60].map(\.data.count).reduce(0, +) / 30
        let after = frames[90..<120].map(\.data.count).reduce(0, +) / 30
        #expect(after * 3 < before, "bytes per picture at 2 Mbit/s: \(before), at 200 kbit/s: \(after)")
        #expect(frames.map(\.pts) == frames.map(\.pts).sorted() && frames.map(\.dts) == frames.map(\.dts).sorted())

        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("x.h265").path
        var writer = try AnnexBWriter(path: path)
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        let decoded = try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-f", "framemd5", "-"])
        #expect(FrameMD5.hashes(decoded.text).count == 120, "\(decoded.standardError)")
    }
}
#endif

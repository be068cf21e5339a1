#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Synchronization
import Testing
import TestSupport

/// The session API as the seeds use VideoToolbox: outputs through the return value, the AsyncStream and
/// the callback alike; flush returns everything; closed sessions refuse input; a decompression session
/// made from an Annex B stream gives back what ffmpeg decodes.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct SessionTests {
    private let registry = CodecEngineRegistry(engines: FFmpegEngines.probe())

    private func picture(_ index: Int, width: Int = 320, height: Int = 240) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: .nv12)
        for row in 0..<height {
            for column in 0..<width { buffer.planes[0].bytes[row * width + column] = UInt8(truncatingIfNeeded: column + row * 3 + index * 7) }
        }
        return buffer
    }

    @Test func everyPictureComesOutOnceThroughTheStream() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.maxBFrames = 3
        configuration.maxKeyFrameInterval = 10
        let session = try CompressionSession(configuration: configuration, registry: registry)
        for index in 0..<25 {
            try await session.encode(picture(index), pts: MediaTime(value: Int64(index), timescale: 25),
                                     duration: MediaTime(value: 1, timescale: 25), forceKeyFrame: index == 13)
        }
        try await session.flush()
        let report = try await session.close()
        var returned: [EncodedFrame] = []
        for await output in session.outputs { if case let .frame(frame) = output { returned.append(frame) } }
        #expect(returned.count == 25)
        #expect(report.isComplete && report.received == 25)
        #expect(Set(returned.map(\.pts.value)) == Set(0..<25))
        #expect(returned.contains { $0.pts.value == 13 && $0.isKeyFrame }, "forced key frame")
        #expect(returned.allSatisfy { $0.format.parameterSets.count == 2 && !$0.nalUnitRanges.isEmpty })
        #expect(session.counts == (25, 25, 0))
        await #expect(throws: CodecError.sessionClosed) {
            try await session.encode(picture(0), pts: MediaTime(value: 99, timescale: 25), duration: MediaTime(value: 1, timescale: 25))
        }
    }

    @Test func inputThatDoesNotMatchIsRefused() async throws {
        let session = try CompressionSession(configuration: CompressionConfiguration(codec: .h264, width: 320, height: 240),
                                             registry: registry)
        await #expect(throws: CodecError.self) {
            try await session.encode(picture(0, width: 160, height: 120), pts: .zero, duration: MediaTime(value: 1, timescale: 25))
        }
        try await session.encode(picture(0), pts: MediaTime(value: 1, timescale: 25), duration: MediaTime(value: 1, timescale: 25))
        await #expect(throws: CodecError.self) {  // pts must increase
            try await session.encode(picture(1), pts: MediaTime(value: 1, timescale: 25), duration: MediaTime(value: 1, timescale: 25))
        }
        #expect(throws: CodecError.invalidConfiguration(property: .size, reason: "321x240: 4:2:0 needs an even width and height")) {
            _ = try CompressionSession(configuration: CompressionConfiguration(codec: .h264, width: 321, height: 240), registry: registry)
        }
        _ = try await session.close()
    }

    @Test(.requiresMedia) func decompressionFromAnAnnexBStreamMatchesFFmpeg() async throws {
        let path = MediaFiles.url("encoded/cars_320x240.h264").path
        let session = try DecompressionSession(annexBStreamOf: .h264, registry: registry, outputFormat: .i420)
        let consumer = Task {
            var pictures: [DecodedPicture] = []
            for await output in session.outputs { if case let .picture(picture) = output { pictures.append(picture) } }
            return pictures
        }
        let bytes = try MediaFiles.bytes("encoded/cars_320x240.h264")
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            try await session.decode(annexB: bytes[start..<min(bytes.count, start + 4096)])
        }
        try await session.flush()
        let report = try await session.close()
        let pictures = await consumer.value
        #expect(report.emitted == pictures.count && report.isComplete)
        let raw = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]).standardOutput
        #expect(pictures.count == 30)
        #expect(pictures.flatMap(\.picture.packedBytes) == [UInt8](raw))
        #expect(zip(pictures, pictures.dropFirst()).allSatisfy { $0.pts < $1.pts }, "display order")
    }
}
#endif

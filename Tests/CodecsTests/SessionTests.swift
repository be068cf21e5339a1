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

    @Test func everyPictureComesOutOnceThroughEveryChannel() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.maxBFrames = 3
        configuration.maxKeyFrameInterval = 10
        let seen = Mutex<[MediaTime]>([])
        let session = try CompressionSession(configuration: configuration, registry: registry) { output in
            if case let .frame(frame) = output { seen.withLock { $0.append(frame.pts) } }
        }
        let outputs = session.outputs  // subscribe before encoding, as with VideoToolbox's callback
        var returned: [EncodedFrame] = []
        for index in 0..<25 {
            returned += try session.encode(picture(index), pts: MediaTime(value: Int64(index), timescale: 25),
                                           duration: MediaTime(value: 1, timescale: 25), forceKeyFrame: index == 13)
        }
        returned += try session.flush()
        session.close()
        var streamed: [EncodedFrame] = []
        for await output in outputs { if case let .frame(frame) = output { streamed.append(frame) } }
        #expect(returned.count == 25)
        #expect(streamed == returned)
        #expect(seen.withLock { $0 } == returned.map(\.pts))
        #expect(Set(returned.map(\.pts.value)) == Set(0..<25))
        #expect(returned.contains { $0.pts.value == 13 && $0.isKeyFrame }, "forced key frame")
        #expect(returned.allSatisfy { $0.format.parameterSets.count == 2 && !$0.nalUnitRanges.isEmpty })
        #expect(session.counts == (25, 25, 0))
        #expect(throws: CodecError.sessionClosed) {
            try session.encode(picture(0), pts: MediaTime(value: 99, timescale: 25), duration: MediaTime(value: 1, timescale: 25))
        }
    }

    @Test func inputThatDoesNotMatchIsRefused() throws {
        let session = try CompressionSession(configuration: CompressionConfiguration(codec: .h264, width: 320, height: 240),
                                             registry: registry)
        #expect(throws: CodecError.self) {
            try session.encode(picture(0, width: 160, height: 120), pts: .zero, duration: MediaTime(value: 1, timescale: 25))
        }
        try session.encode(picture(0), pts: MediaTime(value: 1, timescale: 25), duration: MediaTime(value: 1, timescale: 25))
        #expect(throws: CodecError.self) {  // pts must increase
            try session.encode(picture(1), pts: MediaTime(value: 1, timescale: 25), duration: MediaTime(value: 1, timescale: 25))
        }
        #expect(throws: CodecError.self) {
            _ = try CompressionSession(configuration: CompressionConfiguration(codec: .h264, width: 321, height: 240), registry: registry)
        }
    }

    @Test(.requiresMedia) func decompressionFromAnAnnexBStreamMatchesFFmpeg() async throws {
        let path = MediaFiles.url("encoded/cars_320x240.h264").path
        let session = try DecompressionSession(annexBStreamOf: .h264, registry: registry, outputFormat: .i420)
        let stream = session.pictures
        let bytes = try MediaFiles.bytes("encoded/cars_320x240.h264")
        var pictures: [DecodedPicture] = []
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            pictures += try session.decode(annexB: bytes[start..<min(bytes.count, start + 4096)])
        }
        pictures += try session.flush()
        session.close()
        var streamed = 0
        for await _ in stream { streamed += 1 }
        #expect(streamed == pictures.count)
        let raw = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]).standardOutput
        #expect(pictures.count == 30)
        #expect(pictures.flatMap(\.picture.packedBytes) == [UInt8](raw))
        #expect(zip(pictures, pictures.dropFirst()).allSatisfy { $0.pts < $1.pts }, "display order")
    }
}
#endif

import CodecInterface
import MediaCore
import NativeH264
import Testing

/// The `native` engine decodes H.264: its encoder's AVCC frames go through its decoder.
@Suite("Native engine: H.264 decoding")
struct NativeEngineDecoderTests {
    @Test("the native engine says it decodes H.264 and gives back every picture, in order, with its pts")
    func roundTrip() throws {
        let engine = NativeCodecEngine(threadLimit: 1)
        #expect(engine.decodes(.h264))
        var configuration = CompressionConfiguration(codec: .h264, width: 64, height: 48, profileLevel: ProfileLevel(profile: .constrainedBaseline))
        configuration.allowFrameReordering = false
        configuration.quantizer = 26
        configuration.maxKeyFrameInterval = 5
        let encoder = try engine.makeVideoEncoder(configuration)
        var frames: [EncodedFrame] = []
        for index in 0..<12 {
            var picture = PixelBuffer(width: 64, height: 48, format: .i420)
            for i in picture.planes[0].bytes.indices { picture.planes[0].bytes[i] = UInt8(truncatingIfNeeded: i &* 3 &+ index &* 7) }
            frames += try encoder.encode(picture, pts: MediaTime(value: Int64(index), timescale: 30), duration: MediaTime(value: 1, timescale: 30),
                                         forceKeyFrame: false)
        }
        frames += try encoder.flush()
        #expect(frames.count == 12)
        let decoder = try engine.makeVideoDecoder(frames[0].format, output: .nv12)
        var pictures: [DecodedPicture] = []
        for frame in frames { pictures += try decoder.decode(frame) }
        pictures += try decoder.flush()
        #expect(pictures.count == 12)
        #expect(pictures.map(\.pts.value) == Array(0..<12))
        #expect(pictures.allSatisfy { $0.picture.format == .nv12 && $0.picture.width == 64 && $0.picture.height == 48 })
    }

    @Test("the native engine refuses to decode H.265")
    func refusesHEVC() {
        let format = FormatDescription(codec: .hevc, width: 64, height: 48, profileLevel: ProfileLevel(profile: .hevcMain), parameterSets: [])
        #expect(throws: CodecError.self) { _ = try NativeCodecEngine().makeVideoDecoder(format, output: .i420) }
    }
}

import StreamKit
import Testing

/// Which engine encodes a pipeline's audio (``LiveConfiguration/resolvedAudioEngineName``): the one named for the audio,
/// else the video's named engine when it encodes AAC (so `--engine native` keeps a pipeline native in a build that
/// also has FFmpeg's `aac`), else the registry's choice.
struct LiveAudioEngineChoiceTests {
    static func configuration(videoEngine: String?) -> LiveConfiguration {
        var video = CompressionConfiguration(codec: .h264, width: 64, height: 64)
        video.engineName = videoEngine
        return LiveConfiguration(video: video)
    }

    @Test("a video engine that encodes AAC encodes the audio too; one that does not leaves the choice to the registry")
    func followsTheVideosEngine() throws {
        #expect(Self.configuration(videoEngine: "native").resolvedAudioEngineName == "native")
        #expect(Self.configuration(videoEngine: nil).resolvedAudioEngineName == nil)
        #expect(Self.configuration(videoEngine: "no-such-engine").resolvedAudioEngineName == nil,
                "an unknown name is the video session's error to report, not the audio's")
        // An engine of this build that encodes H.264 but not AAC (x264 where FFmpeg is built in).
        for engine in CodecEngineRegistry.default.engines where engine.encodes(.h264) && !engine.encodes(.aac) {
            #expect(Self.configuration(videoEngine: engine.name).resolvedAudioEngineName == nil, "\(engine.name)")
        }
    }

    @Test("an audio engine named in the configuration wins over the video's")
    func namedAudioEngineWins() {
        var configuration = Self.configuration(videoEngine: "native")
        configuration.audioEngineName = "ffmpeg"
        #expect(configuration.resolvedAudioEngineName == "ffmpeg")
    }
}

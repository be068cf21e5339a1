import Codecs
import MediaCore

/// How a ``LivePipeline`` encodes: the video rendition the live destinations share, the audio, how the bit
/// rate follows the network, and when to stop.
public struct LiveConfiguration: Sendable {
    /// The main video rendition: what live destinations get. ``CompressionConfiguration/realTime`` is set by the
    /// pipeline (no look-ahead, no frame delay) unless ``delivery`` is ``Delivery/waitForSlowest`` (a transcode); the
    /// size must match the video source's.
    public var video: CompressionConfiguration
    /// The audio encoder's bit rate (bits per second); sample rate and channels come from the audio source.
    public var audioBitRate: Int
    /// The audio engine by name (for example "native" or "ffmpeg"), or `nil` for the video's engine
    /// (``CompressionConfiguration/engineName``) when that engine encodes ``audioCodec`` — so naming "native" for the
    /// video keeps the whole pipeline native — and the registry's choice otherwise.
    public var audioEngineName: String?
    /// The audio codec: ``CodecType/aac`` (the default) or ``CodecType/opus`` (libopus through the FFmpeg
    /// engine; a 48 kHz mono or stereo source; for MP4 destinations — the others carry AAC only so far).
    public var audioCodec: CodecType = .aac
    /// How the main rendition's bit rate follows the live destinations' links; `nil` keeps it fixed.
    public var adaptation: (any AdaptationPolicy)?
    /// How the audio rate follows when adaptation lowers the video's (``AudioAdaptation``: the audio keeps its
    /// rate until the video falls below a quarter of its own, then steps down to 32 kbit/s mono, 48 kbit/s stereo);
    /// `nil` keeps the audio at ``audioBitRate`` always.
    public var audioAdaptation: AudioAdaptation? = AudioAdaptation()
    /// The lowest bit rate adaptation may choose (bits per second).
    public var minimumBitRate: Int
    /// The fewest seconds between two key frames the pipeline forces because a destination skipped to one
    /// (a key frame costs several pictures' bits: forcing one on every drop would make a struggling link worse).
    public var minimumForcedKeyFrameSpacing: Double
    /// What happens when a destination falls behind: drops (live, the default) or waiting for it (files).
    public var delivery: Delivery
    /// Stop after this much media (seconds from the first picture or sample): pictures from then on are not taken,
    /// and the sound is cut at that time to the sample (`ffmpeg -t`). `nil`: no limit.
    public var durationLimit: Double?
    /// Stop after this many pictures (`nil`: when the source ends or ``LivePipeline/stop()`` is called).
    public var frameLimit: Int?
    /// The engines to encode with.
    public var registry: CodecEngineRegistry

    /// Creates a configuration.
    /// - Parameters:
    ///   - video: the main rendition's properties (codec, size, bit rate, key-frame interval …).
    ///   - audioBitRate: the AAC bit rate (bits per second).
    ///   - adaptation: the adaptation policy (default: follow the slowest live destination).
    ///   - registry: the engines (default: every engine of this build).
    public init(video: CompressionConfiguration, audioBitRate: Int = 96_000,
                adaptation: (any AdaptationPolicy)? = FollowSlowestDestination(),
                registry: CodecEngineRegistry = .default) {
        self.video = video
        self.audioBitRate = audioBitRate
        self.adaptation = adaptation
        self.minimumBitRate = max(1, min(100_000, (video.averageBitRate ?? 100_000) / 8))
        self.minimumForcedKeyFrameSpacing = 2
        self.delivery = .dropWhenBehind
        self.registry = registry
    }

    /// The engine the audio encoder asks for: ``audioEngineName`` when set, else the video's named engine when it
    /// encodes ``audioCodec`` in ``registry``, else `nil` (the registry chooses).
    public var resolvedAudioEngineName: String? {
        if let audioEngineName { return audioEngineName }
        guard let name = video.engineName, let engine = try? registry.engine(named: name), engine.encodes(audioCodec) else {
            return nil
        }
        return name
    }
}

import Capture

/// What a ``LivePipeline`` takes its media from, with what goes with each kind: pictures and sound to encode with
/// their ``LiveConfiguration``, or media already encoded with nothing but the limits a pass-through has (no encoder,
/// so no configuration of one).
enum LivePipelineInput: Sendable {
    /// Pictures and sound to capture and encode.
    struct Capture: Sendable {
        /// The pictures, or `nil` for audio alone.
        var video: (any VideoSource)?
        /// The sound, or `nil` for video alone.
        var audio: (any AudioSource)?
        /// How to encode, and when to stop.
        var configuration: LiveConfiguration
    }

    /// A camera, a microphone or files, encoded once per rendition.
    case capture(Capture)
    /// Media sent as it is: stop after `frameLimit` pictures (audio frames for a stream without video), deliver as
    /// `delivery` says.
    case encoded(any EncodedMediaSource, frameLimit: Int?, delivery: Delivery)

    /// What happens when a destination falls behind.
    var delivery: Delivery {
        switch self {
        case let .capture(capture): return capture.configuration.delivery
        case let .encoded(_, _, delivery): return delivery
        }
    }

    /// Whether there is anything to read at all.
    var hasSource: Bool {
        switch self {
        case let .capture(capture): return capture.video != nil || capture.audio != nil
        case .encoded: return true
        }
    }

    /// Whether the media is sent as it is (no encoder, so no dedicated renditions and no adaptation).
    var isPassThrough: Bool {
        if case .encoded = self { return true }
        return false
    }

    /// Stops every source; a pending read returns promptly.
    func stop() async {
        switch self {
        case let .capture(capture):
            await capture.video?.stop()
            await capture.audio?.stop()
        case let .encoded(source, _, _):
            await source.stop()
        }
    }
}

import MediaCore

/// One block of PCM from an ``AudioSource`` — what `AVCaptureAudioDataOutput` hands its delegate.
public struct CapturedAudio: Sendable, Hashable {
    /// The samples (16-bit interleaved for the sources in this module).
    public var buffer: AudioBuffer
    /// The time of the first sample, in samples: the timescale is the sample rate.
    public var pts: MediaTime

    /// How long the block lasts.
    public var duration: MediaTime { buffer.duration }

    /// Creates a block.
    /// - Parameters:
    ///   - buffer: the samples.
    ///   - pts: the time of the first sample.
    public init(buffer: AudioBuffer, pts: MediaTime) {
        self.buffer = buffer
        self.pts = pts
    }
}

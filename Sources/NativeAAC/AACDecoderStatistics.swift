/// What a decoder has seen so far: how many frames and channel streams used each coding tool.
/// Tests use it to show a stream exercises what it is meant to.
public struct AACDecoderStatistics: Sendable, Hashable {
    /// Raw data blocks decoded as coded.
    public var decodedFrames = 0
    /// Raw data blocks concealed.
    public var concealedFrames = 0
    /// Channel streams with eight short windows.
    public var shortWindowStreams = 0
    /// Channel streams with `LONG_START_SEQUENCE` or `LONG_STOP_SEQUENCE`.
    public var transitionWindowStreams = 0
    /// Channel streams with the KBD window shape.
    public var kbdStreams = 0
    /// Channel streams with TNS data.
    public var tnsStreams = 0
    /// Channel streams with pulse data.
    public var pulseStreams = 0
    /// Bands coded with M/S (`ms_used` set, both channels spectral).
    public var midSideBands = 0
    /// Bands coded with intensity stereo.
    public var intensityBands = 0
    /// Bands coded with perceptual noise substitution.
    public var noiseBands = 0
    /// Bands coded with the escape codebook (11).
    public var escapeBands = 0

    /// Creates empty statistics.
    public init() {}
}

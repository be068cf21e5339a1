/// The channel mapping table of an Opus stream whose mapping family is not 0 (RFC 7845 §5.1.1; the same
/// fields in the `dOps` box of the ISOBMFF encapsulation, §4.3.2): how many Opus streams the packets hold,
/// how many of them are coupled (stereo), and which decoded channel each output channel takes.
public struct OpusChannelMapping: Sendable, Hashable {
    /// The number of Opus streams in each packet (N, at least 1).
    public var streamCount: Int
    /// How many of those streams are stereo (M, at most N).
    public var coupledStreamCount: Int
    /// One entry per output channel: the decoded channel it takes, or 255 for silence.
    public var channelMapping: [UInt8]

    /// Creates a mapping table.
    /// - Parameters:
    ///   - streamCount: the number of streams.
    ///   - coupledStreamCount: the number of coupled streams.
    ///   - channelMapping: one entry per output channel.
    public init(streamCount: Int, coupledStreamCount: Int, channelMapping: [UInt8]) {
        self.streamCount = streamCount
        self.coupledStreamCount = coupledStreamCount
        self.channelMapping = channelMapping
    }
}

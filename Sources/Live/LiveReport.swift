/// What a ``LivePipeline`` did, when it ends.
public struct LiveReport: Sendable, Hashable, CustomStringConvertible {
    /// Pictures taken from the video source.
    public var picturesCaptured = 0
    /// Pictures the main rendition's encoder produced.
    public var picturesEncoded = 0
    /// Audio frames the AAC encoder produced.
    public var audioFramesEncoded = 0
    /// Audio samples taken from the audio source (per channel).
    public var audioSamplesCaptured = 0
    /// The engine that encoded the main rendition's video, if any.
    public var videoEngine: String?
    /// The engine that encoded the audio, if any.
    public var audioEngine: String?
    /// Changes of the main rendition's bit rate.
    public var bitRateChanges = 0
    /// The main rendition's bit rate at the end (bits per second), if it has one.
    public var finalBitRate: Int?
    /// Changes of the audio encoder's bit rate (``AudioAdaptation``).
    public var audioBitRateChanges = 0
    /// The audio encoder's bit rate at the end (bits per second), if there is audio.
    public var finalAudioBitRate: Int?
    /// Whether the pictures and audio were sent as they were encoded (an encoded source), not encoded here.
    public var isPassThrough = false
    /// Each destination's numbers, in the order they were added.
    public var destinations: [DestinationStatistics] = []

    /// Creates an empty report.
    public init() {}

    /// Sentences a person reads: one for the encoders, one per destination.
    public var description: String {
        var lines = [isPassThrough ? "sent \(picturesEncoded) pictures and \(audioFramesEncoded) audio frames as they were encoded" :
            "encoded \(picturesEncoded) of \(picturesCaptured) pictures and \(audioFramesEncoded) audio frames"
            + (bitRateChanges > 0 ? "; \(bitRateChanges) bit-rate changes" + (finalBitRate.map { ", ending at \($0 / 1000) kbit/s" } ?? "") : "")
            + (audioBitRateChanges > 0 ? "; \(audioBitRateChanges) audio bit-rate changes"
                + (finalAudioBitRate.map { ", ending at \($0 / 1000) kbit/s" } ?? "") : "")]
        lines += destinations.map(\.description)
        return lines.joined(separator: "\n")
    }
}

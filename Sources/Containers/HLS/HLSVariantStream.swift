import MediaCore

/// One `EXT-X-STREAM-INF` entry of a multivariant playlist (RFC 8216 §4.3.4.2): a rendition of the
/// presentation and the URI of its media playlist.
public struct HLSVariantStream: Sendable, Hashable {
    /// The media playlist's URI, relative to the multivariant playlist (`720p/stream.m3u8`).
    public var uri: String
    /// `BANDWIDTH`: the peak segment bit rate in bits per second.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`: the average segment bit rate in bits per second, if known.
    public var averageBandwidth: Int?
    /// `CODECS`: every codec in the rendition, as ``CodecString`` names them (`avc1.64001F`, `mp4a.40.2`).
    public var codecs: [String]
    /// `RESOLUTION`: the picture's width and height in pixels, if it has video.
    public var resolution: (width: Int, height: Int)?
    /// `FRAME-RATE`: the maximum frame rate, if it has video.
    public var frameRate: Double?

    /// Creates an entry.
    /// - Parameters:
    ///   - uri: the media playlist's URI.
    ///   - bandwidth: the peak segment bit rate in bits per second.
    ///   - averageBandwidth: the average segment bit rate, if known.
    ///   - codecs: the codec strings.
    ///   - resolution: width and height, if video.
    ///   - frameRate: the frame rate, if video.
    public init(uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String],
                resolution: (width: Int, height: Int)? = nil, frameRate: Double? = nil) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.frameRate = frameRate
    }

    /// The peak and average segment bit rates of a list of segments (§4.3.4.2: bits of each segment over
    /// its duration; the average over the whole).
    /// - Parameter segments: segments with their sizes.
    /// - Returns: `(peak, average)` in bits per second; zeros for no segment.
    public static func bitRates(of segments: [HLSMediaSegment]) -> (peak: Int, average: Int) {
        var peak = 0.0, bytes = 0, seconds = 0.0
        for segment in segments where segment.duration.value > 0 {
            peak = max(peak, Double(segment.byteCount) * 8 / segment.duration.seconds)
            bytes += segment.byteCount
            seconds += segment.duration.seconds
        }
        guard seconds > 0 else { return (0, 0) }
        return (Int(peak.rounded(.up)), Int((Double(bytes) * 8 / seconds).rounded(.up)))
    }

    /// Equal when every attribute is.
    /// - Parameters:
    ///   - lhs: an entry.
    ///   - rhs: an entry.
    /// - Returns: whether they are the same.
    public static func == (lhs: HLSVariantStream, rhs: HLSVariantStream) -> Bool {
        lhs.uri == rhs.uri && lhs.bandwidth == rhs.bandwidth && lhs.averageBandwidth == rhs.averageBandwidth
            && lhs.codecs == rhs.codecs && lhs.resolution?.width == rhs.resolution?.width
            && lhs.resolution?.height == rhs.resolution?.height && lhs.frameRate == rhs.frameRate
    }

    /// Hashes every attribute.
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(bandwidth)
        hasher.combine(averageBandwidth)
        hasher.combine(codecs)
        hasher.combine(resolution?.width)
        hasher.combine(resolution?.height)
        hasher.combine(frameRate)
    }
}

import MediaCore

/// One media segment line group of a media playlist (RFC 8216 §3, §4.3.2): its `EXTINF` duration, its
/// URI and, optionally, the wall-clock time of its first sample (`EXT-X-PROGRAM-DATE-TIME`).
public struct HLSMediaSegment: Sendable, Hashable {
    /// The segment's URI as the playlist lists it, relative to the playlist (for example
    /// `segment_00001.m4s`).
    public var uri: String
    /// How long the segment plays (`EXTINF`, §4.3.2.1).
    public var duration: MediaTime
    /// The segment's size in bytes, for the bit rates of a multivariant playlist; 0 when unknown.
    public var byteCount: Int
    /// The wall-clock time of the segment's first sample (§4.3.2.6), if known.
    public var programDateTime: HLSProgramDateTime?

    /// Creates a segment entry.
    /// - Parameters:
    ///   - uri: its URI, relative to the playlist.
    ///   - duration: its duration.
    ///   - byteCount: its size in bytes (0 if unknown).
    ///   - programDateTime: the wall-clock time of its first sample, if known.
    public init(uri: String, duration: MediaTime, byteCount: Int = 0, programDateTime: HLSProgramDateTime? = nil) {
        self.uri = uri
        self.duration = duration
        self.byteCount = byteCount
        self.programDateTime = programDateTime
    }

    /// The `EXTINF` duration as the decimal-floating-point the tag carries, to the microsecond
    /// (`2.000000`), rounded half away from zero from the exact rational time.
    public var durationText: String {
        HLSDecimal.text(duration, decimals: 6)
    }
}

/// Decimal text of rational times without going through floating point.
enum HLSDecimal {
    /// `time` in seconds with exactly `decimals` digits after the point.
    static func text(_ time: MediaTime, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = time.converted(to: Int32(clamping: scale)).value
        return text(scaledValue: scaled, decimals: decimals)
    }

    /// A fixed-point value (`scaledValue / 10^decimals`) as decimal text.
    static func text(scaledValue: Int64, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let sign = scaledValue < 0 ? "-" : ""
        let magnitude = scaledValue.magnitude
        let whole = magnitude / UInt64(scale), fraction = magnitude % UInt64(scale)
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let fractionText = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
    }

    /// The smallest whole number of seconds not below `time` (the ceiling).
    static func ceilingSeconds(_ time: MediaTime) -> Int64 {
        let (quotient, remainder) = time.value.quotientAndRemainder(dividingBy: Int64(time.timescale))
        return remainder > 0 ? quotient + 1 : quotient
    }
}

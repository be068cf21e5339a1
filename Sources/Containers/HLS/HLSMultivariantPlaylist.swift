/// A multivariant playlist (RFC 8216 §4.3.4): the renditions of one presentation, each with its bit
/// rate, codecs, resolution and frame rate, for a client to choose from and switch between.
///
/// ```swift
/// let playlist = HLSMultivariantPlaylist(variants: [
///     HLSVariantStream(uri: "720p/stream.m3u8", bandwidth: 2_800_000, codecs: ["avc1.64001F", "mp4a.40.2"],
///                      resolution: (1280, 720), frameRate: 30),
/// ])
/// try AtomicFile.replace("out/master.m3u8", withText: try playlist.text())
/// ```
public struct HLSMultivariantPlaylist: Sendable, Hashable {
    /// The renditions, in the order a client should prefer them when it cannot tell.
    public var variants: [HLSVariantStream]
    /// `EXT-X-INDEPENDENT-SEGMENTS` (§4.3.5.1): every segment of every rendition starts with a key frame.
    public var hasIndependentSegments: Bool

    /// Creates a playlist.
    /// - Parameters:
    ///   - variants: the renditions.
    ///   - hasIndependentSegments: whether every segment starts with a key frame.
    public init(variants: [HLSVariantStream], hasIndependentSegments: Bool = true) {
        self.variants = variants
        self.hasIndependentSegments = hasIndependentSegments
    }

    /// Checks the rules of RFC 8216 for each `EXT-X-STREAM-INF`.
    /// - Throws: ``HLSError/invalidPlaylist(field:reason:)``: no variant; a `BANDWIDTH` that is not positive
    ///   or an `AVERAGE-BANDWIDTH` above it (§4.3.4.2); a codec string with a comma, quote or line break
    ///   (it is one quoted-string, §4.2); a `RESOLUTION` or `FRAME-RATE` that is not positive; a URI that
    ///   is empty, starts with `#` or holds a line break (§4.1).
    public func validate() throws(HLSError) {
        guard !variants.isEmpty else { throw .invalidPlaylist(field: "EXT-X-STREAM-INF", reason: "a multivariant playlist needs a variant") }
        for (index, variant) in variants.enumerated() {
            let name = "EXT-X-STREAM-INF \(index + 1)"
            guard variant.bandwidth > 0 else { throw .invalidPlaylist(field: "BANDWIDTH of \(name)", reason: "\(variant.bandwidth) is not positive") }
            if let average = variant.averageBandwidth, average <= 0 || average > variant.bandwidth {
                throw .invalidPlaylist(field: "AVERAGE-BANDWIDTH of \(name)", reason: "\(average) is not within 1…BANDWIDTH (\(variant.bandwidth))")
            }
            guard !variant.codecs.isEmpty, variant.codecs.allSatisfy({ !$0.isEmpty && !$0.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) }) else {
                throw .invalidPlaylist(field: "CODECS of \(name)", reason: "each codec string must be non-empty without commas, quotes or line breaks")
            }
            if let resolution = variant.resolution, resolution.width <= 0 || resolution.height <= 0 {
                throw .invalidPlaylist(field: "RESOLUTION of \(name)", reason: "\(resolution.width)x\(resolution.height) is not positive")
            }
            if let rate = variant.frameRate, !(rate > 0 && rate.isFinite) {
                throw .invalidPlaylist(field: "FRAME-RATE of \(name)", reason: "\(rate) is not a positive number")
            }
            guard !variant.uri.isEmpty, variant.uri.first != "#", !variant.uri.contains(where: \.isNewline) else {
                throw .invalidPlaylist(field: "URI of \(name)", reason: "a URI line must be non-empty, not start with # and hold no line break")
            }
        }
    }

    /// The playlist file, after ``validate()``. `FRAME-RATE` is rounded to three decimals (§4.3.4.2).
    /// - Returns: the text, starting `#EXTM3U`.
    /// - Throws: ``HLSError/invalidPlaylist(field:reason:)`` as ``validate()``.
    public func text() throws(HLSError) -> String {
        try validate()
        var lines = ["#EXTM3U"]
        if hasIndependentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        for variant in variants {
            var attributes = ["BANDWIDTH=\(variant.bandwidth)"]
            if let average = variant.averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(average)") }
            attributes.append("CODECS=\"\(variant.codecs.joined(separator: ","))\"")
            if let resolution = variant.resolution { attributes.append("RESOLUTION=\(resolution.width)x\(resolution.height)") }
            if let rate = variant.frameRate {
                attributes.append("FRAME-RATE=\(HLSDecimal.text(scaledValue: Int64((rate * 1000).rounded()), decimals: 3))")
            }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(variant.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What a live HLS server hands out under its path (RFC 8216 §3, §4.3.2.5, §6.2.1), and the names it gives them:
/// the media playlist (`index.m3u8`), the fragmented MP4 initialization section (`init.mp4`) and the media segments,
/// named by their media sequence number (`segment_12.m4s`, `segment_12.ts`).
///
/// ``init(name:segmentFormat:)`` reads a request's last path segment back — the part of a server that reads what a
/// client sent, so it is strict: anything but these exact shapes is `nil` (a 404), and a sequence number is at most
/// 18 digits (it never overflows).
public enum HLSLiveResource: Sendable, Hashable {
    /// The media playlist.
    case playlist
    /// The `EXT-X-MAP` initialization section (fragmented MP4 only).
    case initializationSegment
    /// The media segment of this media sequence number.
    case segment(sequenceNumber: Int)

    /// The playlist's name.
    public static let playlistName = "index.m3u8"
    /// The initialization section's name.
    public static let initializationSegmentName = "init.mp4"
    /// What media segment names start with.
    public static let segmentPrefix = "segment_"

    /// The extension of media segments of a format, with its dot.
    /// - Parameter format: the segment format.
    /// - Returns: `.m4s` or `.ts`.
    public static func segmentExtension(_ format: HLSSegmentFormat) -> String {
        format == .mpegTS ? ".ts" : ".m4s"
    }

    /// The resource's name (its URI relative to the playlist).
    /// - Parameter format: the segment format (it decides a segment's extension).
    /// - Returns: `index.m3u8`, `init.mp4` or `segment_N.m4s` / `segment_N.ts`.
    public func name(segmentFormat format: HLSSegmentFormat) -> String {
        switch self {
        case .playlist: return Self.playlistName
        case .initializationSegment: return Self.initializationSegmentName
        case let .segment(number): return Self.segmentPrefix + String(number) + Self.segmentExtension(format)
        }
    }

    /// Reads a name back.
    /// - Parameters:
    ///   - name: the request path's part after the stream's path (`index.m3u8`, `segment_3.m4s`).
    ///   - format: the segment format served (`init.mp4` exists only for fragmented MP4; a segment's extension
    ///     must be the format's).
    /// - Returns: the resource, or `nil` for any other name: a sequence number that is empty, has a sign, a leading
    ///   zero (other than `0` itself), more than 18 digits or anything but ASCII digits.
    public init?(name: String, segmentFormat format: HLSSegmentFormat) {
        if name == Self.playlistName {
            self = .playlist
            return
        }
        if name == Self.initializationSegmentName {
            guard format == .fragmentedMP4 else { return nil }
            self = .initializationSegment
            return
        }
        let utf8 = Array(name.utf8)
        let prefix = Array(Self.segmentPrefix.utf8), suffix = Array(Self.segmentExtension(format).utf8)
        guard utf8.count > prefix.count + suffix.count, utf8.starts(with: prefix), utf8.suffix(suffix.count).elementsEqual(suffix) else {
            return nil
        }
        let digits = utf8[prefix.count..<(utf8.count - suffix.count)]
        guard digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if digits.count > 1, digits.first == UInt8(ascii: "0") { return nil }
        var number = 0
        for digit in digits { number = number * 10 + Int(digit - UInt8(ascii: "0")) }
        self = .segment(sequenceNumber: number)
    }
}

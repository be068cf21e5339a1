/// A session description (RFC 8866, formerly RFC 4566): what an RTSP DESCRIBE answers and what an `.sdp`
/// file holds — the session lines, then one ``SDPMediaDescription`` per `m=` section.
///
/// Read one with ``init(parsing:)-(String)``: CRLF and bare LF line ends are both accepted, attributes and
/// line types this module does not interpret are kept, and errors name the line. Write one with
/// ``text`` (CRLF line ends, as RFC 8866 §5 asks). A description written back parses to an equal value.
///
/// ```swift
/// let sdp = try SessionDescription(parsing: describeAnswer)
/// for media in sdp.media { print(media.media, try media.payloadFormat(for: media.payloadTypes[0])) }
/// ```
public struct SessionDescription: Sendable, Hashable {
    /// The largest description accepted, in bytes (hostile input must not exhaust memory).
    public static let maximumByteCount = 65_536
    /// The most lines accepted.
    public static let maximumLineCount = 4_096
    /// The most `m=` sections accepted.
    public static let maximumMediaCount = 64

    /// `v=`: always 0.
    public var version: Int
    /// `o=`; `nil` when the writer left it out (some cameras do; RFC 8866 requires it).
    public var origin: SDPOrigin?
    /// `s=`: the session name; `""` when absent.
    public var sessionName: String
    /// `i=`: session information.
    public var information: String?
    /// `u=`: a URI with more information.
    public var uri: String?
    /// `e=` lines.
    public var emails: [String]
    /// `p=` lines.
    public var phoneNumbers: [String]
    /// The session-level `c=` line.
    public var connection: SDPConnection?
    /// Session-level `b=` lines.
    public var bandwidths: [SDPBandwidth]
    /// `t=` lines with their `r=` lines.
    public var timings: [SDPTiming]
    /// Session-level `a=` lines, in order.
    public var attributes: [SDPAttribute]
    /// Other session-level lines (`z=`, `k=`, unknown letters), kept as written.
    public var otherLines: [SDPLine]
    /// The `m=` sections, in order.
    public var media: [SDPMediaDescription]

    /// Creates a description; the defaults make a permanent (`t=0 0`) session from 127.0.0.1.
    /// - Parameters:
    ///   - origin: the `o=` line.
    ///   - sessionName: the `s=` line.
    ///   - connection: the session-level `c=` line (where media goes; `nil` for an RTSP DESCRIBE answer).
    ///   - timings: the `t=` lines.
    ///   - attributes: session-level attributes, for example `a=control:*` or `a=tool:`.
    ///   - media: the media sections.
    public init(origin: SDPOrigin? = SDPOrigin(), sessionName: String = "StreamKit", connection: SDPConnection? = nil,
                timings: [SDPTiming] = [SDPTiming()], attributes: [SDPAttribute] = [], media: [SDPMediaDescription] = []) {
        self.version = 0
        self.origin = origin
        self.sessionName = sessionName
        self.information = nil
        self.uri = nil
        self.emails = []
        self.phoneNumbers = []
        self.connection = connection
        self.bandwidths = []
        self.timings = timings
        self.attributes = attributes
        self.otherLines = []
        self.media = media
    }

    /// The value of the first session-level attribute named `name` (ignoring case), `""` for a property.
    /// - Parameter name: the attribute name.
    /// - Returns: its value, or `nil` if absent.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name.lowercased() == name.lowercased() }.map { $0.value ?? "" }
    }

    /// The session-level `a=control:` URL (RFC 2326 C.1.1), `*` or absent in most servers' answers.
    public var control: String? { attribute("control") }
}

/// One `m=` section of a session description (RFC 8866 §5.14) with the lines that follow it.
///
/// A receiver asks it for the typed format of a payload type (``payloadFormat(for:)``), for the
/// stream's control URL (``control``) and for the decoder format (``videoFormat()`` / ``audioFormat()``);
/// a sender builds one from a MediaCore format (``init(video:payloadType:port:control:frameRate:)``).
public struct SDPMediaDescription: Sendable, Hashable {
    /// `video`, `audio`, `application` … (kept as written).
    public var media: String
    /// The transport port; 0 in RTSP DESCRIBE answers, where SETUP picks the ports.
    public var port: Int
    /// The number of consecutive ports (`<port>/<count>`), when written.
    public var portCount: Int?
    /// The transport protocol: `RTP/AVP`, `RTP/AVPF`, `RTP/SAVP` …
    public var transportProtocol: String
    /// The media formats: RTP payload type numbers as text for the RTP profiles.
    public var formats: [String]
    /// The `i=` line.
    public var information: String?
    /// The `c=` lines of this section.
    public var connections: [SDPConnection]
    /// The `b=` lines of this section.
    public var bandwidths: [SDPBandwidth]
    /// The `a=` lines of this section, in order.
    public var attributes: [SDPAttribute]
    /// Lines of other types (`k=`, unknown letters), kept as written.
    public var otherLines: [SDPLine]

    /// Creates a media section.
    /// - Parameters:
    ///   - media: `video` or `audio`.
    ///   - port: the port; 0 when RTSP SETUP chooses it.
    ///   - transportProtocol: `RTP/AVP` by default.
    ///   - formats: the payload types.
    ///   - attributes: the `a=` lines.
    ///   - connections: the `c=` lines.
    public init(media: String, port: Int = 0, transportProtocol: String = "RTP/AVP", formats: [String],
                attributes: [SDPAttribute] = [], connections: [SDPConnection] = []) {
        self.media = media
        self.port = port
        self.portCount = nil
        self.transportProtocol = transportProtocol
        self.formats = formats
        self.information = nil
        self.connections = connections
        self.bandwidths = []
        self.attributes = attributes
        self.otherLines = []
    }

    /// Reads `<media> <port>[/<number of ports>] <proto> <fmt> ...` (RFC 8866 §5.14).
    /// - Parameters:
    ///   - text: the text after `m=`.
    ///   - line: the line number, for errors.
    /// - Throws: ``SDPError/invalidField(line:field:value:)``.
    init(parsing text: Substring, line: Int) throws(SDPError) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 4 else { throw .invalidField(line: line, field: "m=", value: String(text)) }
        let portParts = fields[1].split(separator: "/", omittingEmptySubsequences: false)
        guard portParts.count <= 2, let port = Int(portParts[0]), (0...65535).contains(port) else {
            throw .invalidField(line: line, field: "port", value: String(fields[1]))
        }
        var count: Int?
        if portParts.count == 2 {
            guard let value = Int(portParts[1]), value > 0 else {
                throw .invalidField(line: line, field: "port", value: String(fields[1]))
            }
            count = value
        }
        self.init(media: String(fields[0]), port: port, transportProtocol: String(fields[2]),
                  formats: fields[3...].map(String.init))
        portCount = count
    }

    /// The line's value: `video 0 RTP/AVP 96`.
    public var mediaLineValue: String {
        let portText = portCount.map { "\(port)/\($0)" } ?? "\(port)"
        return ([media, portText, transportProtocol] + formats).joined(separator: " ")
    }

    /// Whether the section carries RTP (its protocol starts with `RTP/`), so its formats are payload types.
    public var isRTP: Bool { transportProtocol.uppercased().hasPrefix("RTP/") }

    /// The formats as RTP payload types (0...127); formats that are not numbers are left out.
    public var payloadTypes: [UInt8] {
        formats.compactMap { UInt8($0) }.filter { $0 < 128 }
    }

    /// The value of the first attribute named `name` (compared ignoring case), `""` for a property.
    /// - Parameter name: the attribute name.
    /// - Returns: its value, or `nil` if absent.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name.lowercased() == name.lowercased() }.map { $0.value ?? "" }
    }
}

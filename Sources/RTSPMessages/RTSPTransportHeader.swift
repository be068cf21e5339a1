/// One transport specification of a `Transport` header (RFC 2326 §12.39): how RTP travels — over UDP to the
/// client's ports, or interleaved in the RTSP TCP connection on a pair of channels.
///
/// `RTP/AVP;unicast;client_port=4588-4589` and `RTP/AVP/TCP;unicast;interleaved=0-1` both parse, and
/// ``headerValue`` writes them back. Parameters this type has no property for are kept in ``otherParameters``.
public struct RTSPTransportHeader: Hashable, Sendable, CustomStringConvertible {
    /// The lower transport.
    public enum LowerTransport: String, Hashable, Sendable {
        /// RTP over UDP (the default).
        case udp = "UDP"
        /// RTP interleaved in the RTSP TCP connection.
        case tcp = "TCP"
    }

    /// The transport protocol and profile, `RTP/AVP` (or `RTP/AVPF`, `RTP/SAVP`).
    public var profile: String
    /// UDP or TCP.
    public var lowerTransport: LowerTransport
    /// Whether it is multicast (`multicast`) rather than `unicast`.
    public var isMulticast: Bool
    /// `client_port=`: the client's RTP and RTCP ports.
    public var clientPorts: ClosedRange<UInt16>?
    /// `server_port=`: the server's RTP and RTCP ports.
    public var serverPorts: ClosedRange<UInt16>?
    /// `interleaved=`: the RTP and RTCP channels in the TCP stream.
    public var interleavedChannels: ClosedRange<UInt8>?
    /// `ssrc=`: the sender's synchronisation source (8 hex digits).
    public var ssrc: UInt32?
    /// `mode=`: `PLAY` or `RECORD` (quotes removed).
    public var mode: String?
    /// `destination=`.
    public var destination: String?
    /// `source=`.
    public var source: String?
    /// `ttl=` (multicast).
    public var timeToLive: Int?
    /// Any other parameters, in order: name and value (`nil` for a flag).
    public var otherParameters: [OtherParameter]

    /// A parameter this type has no property for.
    public struct OtherParameter: Hashable, Sendable {
        /// Its name.
        public var name: String
        /// Its value, or `nil` for a flag such as `append`.
        public var value: String?

        /// A parameter.
        /// - Parameters:
        ///   - name: the name.
        ///   - value: the value.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// A unicast transport.
    /// - Parameters:
    ///   - lowerTransport: UDP or TCP.
    ///   - clientPorts: for UDP, the client's ports.
    ///   - serverPorts: for UDP, the server's ports.
    ///   - interleavedChannels: for TCP, the channels.
    ///   - ssrc: the SSRC, if known.
    ///   - mode: `PLAY` or `RECORD`, if given.
    public init(lowerTransport: LowerTransport, clientPorts: ClosedRange<UInt16>? = nil, serverPorts: ClosedRange<UInt16>? = nil,
                interleavedChannels: ClosedRange<UInt8>? = nil, ssrc: UInt32? = nil, mode: String? = nil) {
        profile = "RTP/AVP"
        self.lowerTransport = lowerTransport
        isMulticast = false
        self.clientPorts = clientPorts
        self.serverPorts = serverPorts
        self.interleavedChannels = interleavedChannels
        self.ssrc = ssrc
        self.mode = mode
        otherParameters = []
    }

    /// The longest header value parsed (a hostile peer's endless value is refused).
    public static let maximumLength = 4096

    /// Parses every transport specification of a `Transport` header: a client may offer several, comma-separated,
    /// in order of preference (RFC 2326 §12.39).
    /// - Parameter value: the header value.
    /// - Returns: the specifications (at least one).
    /// - Throws: ``RTSPHeaderError`` naming the malformed parameter.
    public static func parseList(_ value: String) throws(RTSPHeaderError) -> [RTSPTransportHeader] {
        guard value.utf8.count <= maximumLength else { throw .tooLong(header: "Transport", limit: maximumLength) }
        var list: [RTSPTransportHeader] = []
        for part in value.split(separator: ",") where !part.trimmingRTSPWhitespace().isEmpty {
            list.append(try RTSPTransportHeader(parsing: String(part)))
        }
        guard !list.isEmpty else { throw .missingPart(header: "Transport", part: "transport specification") }
        return list
    }

    /// RFC 2616 §2.2's separators but `/` (which parts a transport protocol, a profile and a lower transport).
    private static let separators: Set<UInt8> = Set(Array("()<>@,;:\\\"[]?={} \t".utf8))

    /// Parses one transport specification: `RTP/AVP[/UDP|/TCP];parameter;…`.
    /// - Parameter text: the specification.
    /// - Throws: ``RTSPHeaderError`` naming the malformed parameter.
    public init(parsing text: String) throws(RTSPHeaderError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(header: "Transport", limit: Self.maximumLength) }
        let parts = text.split(separator: ";", omittingEmptySubsequences: true).map { $0.trimmingRTSPWhitespace() }
        guard let spec = parts.first, !spec.isEmpty else { throw .missingPart(header: "Transport", part: "transport protocol") }
        // transport-protocol, profile and lower-transport are tokens (RFC 2326 §12.39, §15.1): ASCII without
        // controls or separators — so that what is written back reads the same.
        let isToken = spec.utf8.allSatisfy { (0x21...0x7E).contains($0) && !Self.separators.contains($0) }
        guard isToken else {
            throw .malformedParameter(header: "Transport", parameter: String(spec), reason: "the transport protocol is not a token")
        }
        let pieces = spec.split(separator: "/").map { $0.uppercased() }
        guard pieces.count == 2 || pieces.count == 3, !pieces[0].isEmpty, !pieces[1].isEmpty else {
            throw .malformedParameter(header: "Transport", parameter: String(spec), reason: "not protocol/profile[/lower-transport]")
        }
        profile = pieces[0] + "/" + pieces[1]
        if pieces.count == 3 {
            guard let lower = LowerTransport(rawValue: pieces[2]) else {
                throw .malformedParameter(header: "Transport", parameter: String(spec), reason: "lower transport is not UDP or TCP")
            }
            lowerTransport = lower
        } else {
            lowerTransport = .udp
        }
        isMulticast = false
        otherParameters = []
        // A parameter of spaces alone (`; ;`) is nothing: it could not be written back.
        for parameter in parts.dropFirst() where !parameter.isEmpty {
            let name: Substring, value: Substring?
            if let equals = parameter.firstIndex(of: "=") {
                name = parameter[..<equals].trimmingRTSPWhitespace()
                value = parameter[parameter.index(after: equals)...].trimmingRTSPWhitespace()
            } else {
                name = parameter
                value = nil
            }
            let key = name.lowercased()
            func required() throws(RTSPHeaderError) -> Substring {
                guard let value, !value.isEmpty else {
                    throw .malformedParameter(header: "Transport", parameter: String(parameter), reason: "needs a value")
                }
                return value
            }
            switch key {
            case "unicast": isMulticast = false
            case "multicast": isMulticast = true
            case "client_port": clientPorts = try Self.portRange(required(), parameter: parameter)
            case "server_port": serverPorts = try Self.portRange(required(), parameter: parameter)
            case "interleaved":
                let range = try Self.range(required(), maximum: 255, parameter: parameter)
                interleavedChannels = UInt8(range.lowerBound)...UInt8(range.upperBound)
            case "ssrc":
                let digits = try required()
                guard digits.utf8.count <= 8, let number = UInt32(digits, radix: 16) else {
                    throw .malformedParameter(header: "Transport", parameter: String(parameter), reason: "not 1 to 8 hex digits")
                }
                ssrc = number
            case "mode":
                mode = String(try required()).replacingQuotes()
            case "destination": destination = value.map(String.init)
            case "source": source = value.map(String.init)
            case "ttl":
                guard let ttl = Int(try required()), (0...255).contains(ttl) else {
                    throw .malformedParameter(header: "Transport", parameter: String(parameter), reason: "not 0 to 255")
                }
                timeToLive = ttl
            default:
                otherParameters.append(OtherParameter(name: String(name), value: value.map(String.init)))
            }
        }
    }

    /// The specification as a header value, for example `RTP/AVP/TCP;unicast;interleaved=0-1`.
    public var headerValue: String {
        var text = profile + (lowerTransport == .tcp ? "/TCP" : "")
        text += isMulticast ? ";multicast" : ";unicast"
        if let destination { text += ";destination=\(destination)" }
        if let source { text += ";source=\(source)" }
        if let interleavedChannels { text += ";interleaved=\(interleavedChannels.lowerBound)-\(interleavedChannels.upperBound)" }
        if let timeToLive { text += ";ttl=\(timeToLive)" }
        if let clientPorts { text += ";client_port=\(clientPorts.lowerBound)-\(clientPorts.upperBound)" }
        if let serverPorts { text += ";server_port=\(serverPorts.lowerBound)-\(serverPorts.upperBound)" }
        if let ssrc { text += ";ssrc=" + Self.hex8(ssrc) }
        if let mode { text += ";mode=\(mode)" }
        for other in otherParameters { text += ";" + other.name + (other.value.map { "=" + $0 } ?? "") }
        return text
    }

    /// The ``headerValue``.
    public var description: String { headerValue }

    private static func portRange(_ text: Substring, parameter: Substring) throws(RTSPHeaderError) -> ClosedRange<UInt16> {
        let range = try range(text, maximum: 65535, parameter: parameter)
        return UInt16(range.lowerBound)...UInt16(range.upperBound)
    }

    /// `a-b` or `a` (then `a-(a+1)`, as the RTCP port or channel follows the RTP one).
    private static func range(_ text: Substring, maximum: Int, parameter: Substring) throws(RTSPHeaderError) -> ClosedRange<Int> {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.utf8.count <= 5, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let value = Int(part), value <= maximum else { return nil }
            return value
        }
        guard bounds.count <= 2, let low = number(bounds[0]) else {
            throw .malformedParameter(header: "Transport", parameter: String(parameter), reason: "not a range within 0…\(maximum)")
        }
        if bounds.count == 1 { return low...min(low + 1, maximum) }
        guard let high = number(bounds[1]), high >= low else {
            throw .malformedParameter(header: "Transport", parameter: String(parameter), reason: "not a range within 0…\(maximum)")
        }
        return low...high
    }

    static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

extension String {
    /// The text without surrounding double quotes.
    func replacingQuotes() -> String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

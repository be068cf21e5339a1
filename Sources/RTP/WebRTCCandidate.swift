/// An ICE candidate as `a=candidate:` writes it (RFC 8839 §5.1): foundation, component, transport, priority,
/// address, port, type, and the related address of a reflexive or relayed one.
public struct WebRTCCandidate: Hashable, Sendable {
    /// The foundation (1–32 `ice-char`s).
    public var foundation: String
    /// The component: 1 for RTP (and RTCP with rtcp-mux), 2 for RTCP.
    public var component: Int
    /// `udp` or `tcp`, lowercased.
    public var transport: String
    /// The priority (RFC 8445 §5.1.2).
    public var priority: UInt32
    /// The address: IPv4, IPv6 or an mDNS name (`….local`).
    public var address: String
    /// The port.
    public var port: UInt16
    /// `host`, `srflx`, `prflx` or `relay`.
    public var type: String
    /// The other `name value` pairs after the type, in order (`raddr`, `rport`, `tcptype`, `generation`, …).
    public var extensions: [SDPFormatParameters.Parameter]

    /// A candidate.
    /// - Parameters:
    ///   - foundation: the foundation.
    ///   - component: the component.
    ///   - transport: `udp` or `tcp`.
    ///   - priority: the priority.
    ///   - address: the address.
    ///   - port: the port.
    ///   - type: the type.
    public init(foundation: String, component: Int = 1, transport: String = "udp", priority: UInt32, address: String, port: UInt16,
                type: String = "host") {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.type = type
        extensions = []
    }

    /// Reads the value of an `a=candidate:` attribute (RFC 8839 §5.1).
    /// - Parameter value: the text after `candidate:`.
    /// - Throws: ``SDPError/invalidParameter(name:value:reason:)`` naming the field that is wrong.
    public init(attributeValue value: String) throws(SDPError) {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func fail(_ reason: String) -> SDPError { .invalidParameter(name: "candidate", value: value, reason: reason) }
        guard fields.count >= 8 else { throw fail("fewer than 8 fields") }
        guard let component = Int(fields[1]), (1...256).contains(component) else { throw fail("component-id is not 1 to 256") }
        guard let priority = UInt32(fields[3]) else { throw fail("priority is not a 32-bit number") }
        guard let port = UInt16(fields[5]) else { throw fail("port is not 0 to 65535") }
        guard fields[6] == "typ" else { throw fail("no 'typ' before the candidate type") }
        guard (fields.count - 8) % 2 == 0 else { throw fail("an extension name without a value") }
        self.init(foundation: fields[0], component: component, transport: fields[2].lowercased(), priority: priority,
                  address: fields[4], port: port, type: fields[7])
        extensions = stride(from: 8, to: fields.count, by: 2).map { SDPFormatParameters.Parameter(name: fields[$0], value: fields[$0 + 1]) }
    }

    /// The attribute value: `1 1 udp 2130706431 127.0.0.1 50000 typ host`.
    public var attributeValue: String {
        ([foundation, String(component), transport, String(priority), address, String(port), "typ", type]
            + extensions.flatMap { [$0.name, $0.value] }).joined(separator: " ")
    }
}

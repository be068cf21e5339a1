/// A transport address in a STUN attribute (RFC 8489 §14.1, §14.2): an IPv4 or IPv6 address and a port, as bytes —
/// this module has no sockets; the network layer converts to and from its socket addresses.
public struct STUNAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address, 4 bytes (IPv4) or 16 bytes (IPv6), in network order.
    public var address: [UInt8]
    /// The port.
    public var port: UInt16

    /// An address.
    /// - Parameters:
    ///   - address: 4 or 16 bytes.
    ///   - port: the port.
    public init(address: [UInt8], port: UInt16) {
        self.address = address
        self.port = port
    }

    /// Whether it is IPv6 (16 bytes).
    public var isIPv6: Bool { address.count == 16 }

    /// `192.0.2.1:32853` or `[2001:db8::1]:32853` (IPv6 written as eight groups, without compressing zeros).
    public var description: String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") + ":\(port)" }
        var groups: [String] = []
        var index = 0
        while index + 1 < address.count {
            groups.append(String(UInt16(address[index]) << 8 | UInt16(address[index + 1]), radix: 16))
            index += 2
        }
        return "[" + groups.joined(separator: ":") + "]:\(port)"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address with a port: where a socket binds, connects or sends.
///
/// Written and parsed as `127.0.0.1:5004` and `[::1]:5004` (IPv6 in brackets, RFC 3986 §3.2.2), with an
/// optional numeric zone (`[fe80::1%2]:5004`). Host names are not resolved: this is a value, not a lookup.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        /// IPv4 (`AF_INET`).
        case ipv4
        /// IPv6 (`AF_INET6`).
        case ipv6

        /// The C constant.
        public var rawValue: Int32 {
            switch self {
            case .ipv4: AF_INET
            case .ipv6: AF_INET6
            }
        }
    }

    /// The family.
    public let family: Family
    /// The port, in host order.
    public var port: UInt16
    /// For IPv6, the zone (interface index) of a link-local address; 0 otherwise.
    public let scopeID: UInt32
    /// The address as a 128-bit big-endian number split in halves; IPv4 is the low 32 bits of `low`.
    let high: UInt64
    let low: UInt64

    /// An address from its numeric halves (no allocation: the hot path of `sendto`/`recvfrom`).
    init(family: Family, high: UInt64, low: UInt64, port: UInt16, scopeID: UInt32 = 0) {
        self.family = family
        self.high = family == .ipv4 ? 0 : high
        self.low = family == .ipv4 ? low & 0xFFFF_FFFF : low
        self.port = port
        self.scopeID = family == .ipv4 ? 0 : scopeID
    }

    private init(family: Family, bytes: [UInt8], port: UInt16, scopeID: UInt32 = 0) {
        var high: UInt64 = 0, low: UInt64 = 0
        if family == .ipv4 {
            for byte in bytes.prefix(4) { low = low << 8 | UInt64(byte) }
        } else {
            for byte in bytes.prefix(8) { high = high << 8 | UInt64(byte) }
            for byte in bytes.dropFirst(8).prefix(8) { low = low << 8 | UInt64(byte) }
        }
        self.init(family: family, high: high, low: low, port: port, scopeID: scopeID)
    }

    /// The address bytes in network order (4 or 16).
    public var addressBytes: [UInt8] {
        if family == .ipv4 { return (0..<4).map { UInt8(truncatingIfNeeded: low >> (24 - 8 * $0)) } }
        return (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }

    /// An address from its host and port.
    /// - Parameters:
    ///   - host: an IPv4 dotted quad (`127.0.0.1`) or an IPv6 address without brackets (`::1`, `fe80::1%2`).
    ///   - port: the port.
    /// - Throws: ``SocketAddressError/invalidHost(text:host:)``.
    public init(host: String, port: UInt16) throws(SocketAddressError) {
        guard let address = Self.parseHost(host, port: port) else {
            throw .invalidHost(text: host, host: host)
        }
        self = address
    }

    /// Parses `host:port`: `127.0.0.1:5004`, `[::1]:5004`, `[fe80::1%2]:5004`.
    /// - Parameter text: the address.
    /// - Throws: ``SocketAddressError`` naming what is wrong.
    public init(parsing text: String) throws(SocketAddressError) {
        let host: Substring, portText: Substring
        let bracketed = text.hasPrefix("[")
        if bracketed {
            guard let close = text.firstIndex(of: "]") else { throw .malformedBrackets(text: text) }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.first == ":" else {
                if after.isEmpty { throw .missingPort(text: text) }
                throw .malformedBrackets(text: text)
            }
            portText = after.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .missingPort(text: text) }
            host = text[..<colon]
            guard !host.contains(":") else { throw .missingBrackets(text: text) }
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = UInt16(portText) else {
            throw .invalidPort(text: text, port: String(portText))
        }
        guard let address = Self.parseHost(String(host), port: port), (address.family == .ipv6) == bracketed else {
            throw .invalidHost(text: text, host: String(host))
        }
        self = address
    }

    private static func parseHost(_ host: String, port: UInt16) -> SocketAddress? {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            let bytes = withUnsafeBytes(of: ipv4) { Array($0) }
            return SocketAddress(family: .ipv4, bytes: bytes, port: port)
        }
        var address = Substring(host)
        var scopeID: UInt32 = 0
        if let percent = host.firstIndex(of: "%") {
            guard let zone = UInt32(host[host.index(after: percent)...]) else { return nil }
            scopeID = zone
            address = host[..<percent]
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, String(address), &ipv6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
        return SocketAddress(family: .ipv6, bytes: bytes, port: port, scopeID: scopeID)
    }

    /// The loopback address of a family: `127.0.0.1` or `::1`.
    /// - Parameters:
    ///   - family: IPv4 or IPv6.
    ///   - port: the port (0 lets `bind` choose one).
    /// - Returns: the address.
    public static func loopback(_ family: Family, port: UInt16) -> SocketAddress {
        family == .ipv4 ? SocketAddress(family: .ipv4, bytes: [127, 0, 0, 1], port: port)
            : SocketAddress(family: .ipv6, bytes: Array(repeating: 0, count: 15) + [1], port: port)
    }

    /// The wildcard address of a family (`0.0.0.0` or `::`): every interface, for `bind`.
    /// - Parameters:
    ///   - family: IPv4 or IPv6.
    ///   - port: the port (0 lets `bind` choose one).
    /// - Returns: the address.
    public static func any(_ family: Family, port: UInt16) -> SocketAddress {
        SocketAddress(family: family, bytes: Array(repeating: 0, count: family == .ipv4 ? 4 : 16), port: port)
    }

    /// The host part as text: `127.0.0.1`, `::1`, `fe80::1%2`.
    public var host: String {
        let bytes = addressBytes
        if family == .ipv4 { return bytes.map(String.init).joined(separator: ".") }
        var ipv6 = in6_addr()
        withUnsafeMutableBytes(of: &ipv6) { $0.copyBytes(from: bytes) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &ipv6, &text, socklen_t(text.count)) != nil else { return "?" }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return scopeID == 0 ? address : "\(address)%\(scopeID)"
    }

    /// `127.0.0.1:5004` or `[::1]:5004`: what ``init(parsing:)`` reads back.
    public var description: String {
        family == .ipv4 ? "\(host):\(port)" : "[\(host)]:\(port)"
    }
}

import POSIX

/// The authority of a URL, `[userinfo@]host[:port]` (RFC 3986 §3.2), as `rtmp://`, `rtmps://` and `rtsp://` URLs
/// carry it: the user information split at its first `:` and percent-decoded (§3.2.1), the host — a registered
/// name, an IPv4 address or an IPv6 address in brackets, `[::1]` (§3.2.2) — and the port as 1–65535 (§3.2.3).
/// Anything else (a control character or space in the host, an IPv6 address without brackets, a port that is not
/// all digits, a bad `%` escape) is refused with the reason.
struct URLAuthority: Sendable, Hashable {
    /// Why an authority is refused: a phrase that completes "the URL …" (for example "names no host").
    struct Refusal: Error, Sendable, Hashable {
        /// The phrase.
        var reason: String
    }

    /// The user name, percent-decoded, if the authority has user information.
    var user: String?
    /// The password (what follows the user name's first `:`), percent-decoded, if any.
    var password: String?
    /// The host: a registered name or an address, IPv6 without its brackets.
    var host: String
    /// The port, if the authority names one.
    var port: UInt16?

    /// An authority from its parts.
    /// - Parameters:
    ///   - user: the user name, decoded.
    ///   - password: the password, decoded.
    ///   - host: the host, IPv6 without brackets.
    ///   - port: the port.
    init(user: String?, password: String?, host: String, port: UInt16?) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
    }

    /// The authority of a URL whose scheme and `://` are gone: everything up to the first `/`.
    /// - Parameter rest: the URL after `scheme://`.
    /// - Returns: the authority and what follows it, from its `/` (empty when nothing does).
    static func split(_ rest: Substring) -> (authority: Substring, path: Substring) {
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        return (rest[..<slash], rest[slash...])
    }

    /// Reads an authority (RFC 3986 §3.2).
    /// - Parameter authority: `[userinfo@]host[:port]`, for example `admin:secret@[::1]:8554`.
    /// - Throws: ``Refusal`` naming what is wrong.
    init(parsing authority: Substring) throws(Refusal) {
        var hostAndPort = authority
        // §3.2.1: the user information ends at the last "@" (a password may hold an unescaped one).
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            user = try Self.decoded(userInfo[..<(colon ?? userInfo.endIndex)])
            if let colon { password = try Self.decoded(userInfo[userInfo.index(after: colon)...]) }
        }
        var portText: Substring?
        if hostAndPort.hasPrefix("[") {
            // §3.2.2: IP-literal = "[" IPv6address "]" (with a numeric zone, `%2`, as SocketAddress reads it).
            guard let close = hostAndPort.firstIndex(of: "]") else { throw Refusal(reason: "has an IPv6 host without its ']'") }
            let literal = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw Refusal(reason: "has '\(after)' after the IPv6 host")
            }
            guard literal.contains(":"), literal.unicodeScalars.allSatisfy(Self.isIPv6LiteralCharacter) else {
                throw Refusal(reason: "has '[\(literal)]', not an IPv6 address")
            }
            host = String(literal)
        } else {
            if let colon = hostAndPort.lastIndex(of: ":") {
                host = String(hostAndPort[..<colon])
                portText = hostAndPort[hostAndPort.index(after: colon)...]
            } else {
                host = String(hostAndPort)
            }
            if host.contains(":") { throw Refusal(reason: "has the IPv6 host '\(host)' without brackets ([\(host)])") }
            // §3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims ); an IPv4 address is one too.
            if let bad = host.unicodeScalars.first(where: { !Self.isRegisteredNameCharacter($0) }) {
                throw Refusal(reason: "has the character U+\(String(bad.value, radix: 16, uppercase: true)) in its host")
            }
        }
        guard !host.isEmpty else { throw Refusal(reason: "names no host") }
        if let portText {
            // §3.2.3: port = *DIGIT; 0 is no port to connect to.
            guard !portText.isEmpty, portText.count <= 5, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let number = UInt16(portText), number > 0 else {
                throw Refusal(reason: "has the port '\(portText)', not 1-65535")
            }
            port = number
        }
    }

    /// A part of the user information, percent-decoded (RFC 3986 §3.2.1).
    private static func decoded(_ part: Substring) throws(Refusal) -> String {
        guard let text = PercentDecoding.decode(part) else {
            throw Refusal(reason: "has a '%' not followed by two hexadecimal digits in its user information")
        }
        return text
    }

    /// A host as a URL names it: an IPv6 address in brackets (RFC 3986 §3.2.2).
    /// - Parameter host: the host, IPv6 without brackets.
    /// - Returns: `[::1]` for `::1`, the host itself otherwise.
    static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// The address to connect to: a numeric host (`localhost` is read as 127.0.0.1; other names are not resolved).
    /// - Parameters:
    ///   - host: the host.
    ///   - port: the port.
    /// - Returns: the socket address.
    /// - Throws: ``Refusal`` when the host is not an address.
    static func socketAddress(host: String, port: UInt16) throws(Refusal) -> SocketAddress {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        do { return try SocketAddress(host: numeric, port: port) } catch {
            throw Refusal(reason: "host \(host) is not a numeric address (\(error))")
        }
    }

    /// RFC 3986 §2.3 unreserved, §2.2 sub-delims and `%` (of pct-encoded): what a registered name may hold.
    private static func isRegisteredNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", "%": true
        default: false
        }
    }

    /// What an IPv6 literal may hold: hexadecimal digits, `:` and `.` (an embedded IPv4 address), and a zone after
    /// `%` of unreserved characters (RFC 6874).
    private static func isIPv6LiteralCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ":", ".", "%", "-", "_", "~": true
        default: false
        }
    }
}

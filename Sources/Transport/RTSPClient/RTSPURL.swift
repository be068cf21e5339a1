import POSIX

/// An `rtsp://[user[:password]@]host[:port][/path]` URL (RFC 2326 §3.2), split into what a client needs:
/// where to connect, the URL to name in requests (without the credentials) and the credentials, if any.
public struct RTSPURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address (IPv6 without its brackets).
    public var host: String
    /// The TCP port (554 when the URL names none).
    public var port: UInt16
    /// The path with its leading `/`, and any query (`/live`, `/` when empty).
    public var path: String
    /// The user name from the URL, if any.
    public var user: String?
    /// The password from the URL, if any.
    public var password: String?

    /// Reads a URL.
    /// - Parameter text: for example `rtsp://admin:secret@127.0.0.1:8554/live`.
    /// - Throws: ``RTSPClientError/invalidURL(_:reason:)`` naming what is wrong.
    public init(parsing text: String) throws(RTSPClientError) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("rtsp://") else { throw .invalidURL(text, reason: "does not start with rtsp://") }
        var rest = Substring(text.dropFirst("rtsp://".count))
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        path = authorityEnd == rest.endIndex ? "/" : String(rest[authorityEnd...])
        rest = authority
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = Self.percentDecoded(credentials[..<colon])
                password = Self.percentDecoded(credentials[credentials.index(after: colon)...])
            } else {
                user = Self.percentDecoded(credentials)
            }
        }
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text, reason: "has an IPv6 host without its ']'") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw .invalidURL(text, reason: "has '\(after)' after the IPv6 host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw .invalidURL(text, reason: "names no host") }
        if let portText {
            guard let number = UInt16(portText), number > 0 else { throw .invalidURL(text, reason: "has the port '\(portText)', not 1-65535") }
            port = number
        } else {
            port = 554
        }
    }

    /// The URL as requests name it: without the credentials.
    public var requestURL: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "rtsp://\(name):\(port)\(path)"
    }

    /// The same as ``requestURL``.
    public var description: String { requestURL }

    /// The address to connect to (a numeric host; names other than `localhost` are not resolved).
    /// - Throws: ``RTSPClientError/invalidURL(_:reason:)`` when the host is not an address.
    public func socketAddress() throws(RTSPClientError) -> SocketAddress {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        do { return try SocketAddress(host: numeric, port: port) } catch {
            throw .invalidURL(requestURL, reason: "host \(host) is not a numeric address (\(error))")
        }
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

import POSIX

/// An `rtmp://host[:port]/app[/instance]/stream` or `rtmps://…` URL (the authority as RFC 3986 §3.2 reads it), split into what `connect` and `publish` or
/// `play` name: the application (everything up to the last path component) and the stream name (the last one,
/// with any query, which servers read as parameters of the stream key).
public struct RTMPURL: Sendable, Hashable, CustomStringConvertible {
    /// Whether the scheme is `rtmps` (RTMP over TLS).
    public var isSecure: Bool
    /// The host name or address (IPv6 without its brackets).
    public var host: String
    /// The TCP port (1935 for `rtmp`, 443 for `rtmps`, when the URL names none).
    public var port: UInt16
    /// The application, for example `live` (or `live/instance`).
    public var app: String
    /// The stream name (the stream key), for example `abc123`; empty when the URL names only the application.
    public var streamName: String

    /// Reads a URL.
    /// - Parameter text: for example `rtmp://127.0.0.1:1935/live/key`.
    /// - Throws: ``RTMPError/invalidURL(_:reason:)`` naming what is wrong.
    public init(parsing text: String) throws(RTMPError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("rtmp://") {
            isSecure = false
        } else if lowered.hasPrefix("rtmps://") {
            isSecure = true
        } else {
            throw .invalidURL(text, reason: "does not start with rtmp:// or rtmps://")
        }
        let (authorityText, pathText) = URLAuthority.split(text.dropFirst(isSecure ? 8 : 7))
        let authority: URLAuthority
        do { authority = try URLAuthority(parsing: authorityText) } catch { throw .invalidURL(text, reason: error.reason) }
        guard authority.user == nil else { throw .invalidURL(text, reason: "has user information, which RTMP does not carry") }
        host = authority.host
        port = authority.port ?? (isSecure ? 443 : 1935)
        let path = pathText.dropFirst()
        let queryStart = path.firstIndex(of: "?") ?? path.endIndex
        let beforeQuery = path[..<queryStart]
        if let last = beforeQuery.lastIndex(of: "/") {
            app = String(beforeQuery[..<last])
            streamName = String(path[path.index(after: last)...])
        } else {
            app = String(beforeQuery)
            streamName = String(path[queryStart...])
        }
        guard !app.isEmpty else { throw .invalidURL(text, reason: "names no application") }
    }

    /// The URL `connect` sends as `tcUrl`: scheme, host, port and application, without the stream name.
    public var tcURL: String {
        "\(isSecure ? "rtmps" : "rtmp")://\(URLAuthority.bracketed(host)):\(port)/\(app)"
    }

    /// The whole URL, normalized.
    public var description: String {
        streamName.isEmpty ? tcURL : "\(tcURL)/\(streamName)"
    }

    /// The address to connect to (a numeric host; `localhost` is read as 127.0.0.1, other names are not resolved).
    /// - Throws: ``RTMPError/invalidURL(_:reason:)`` when the host is not an address.
    public func socketAddress() throws(RTMPError) -> SocketAddress {
        do { return try URLAuthority.socketAddress(host: host, port: port) } catch { throw .invalidURL(description, reason: error.reason) }
    }
}

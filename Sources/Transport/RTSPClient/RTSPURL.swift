import POSIX

/// An `rtsp://[user[:password]@]host[:port][/path]` URL (RFC 2326 §3.2; the authority as RFC 3986 §3.2 reads it), split into what a client needs:
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
        let (authorityText, pathText) = URLAuthority.split(text.dropFirst("rtsp://".count))
        let authority: URLAuthority
        do { authority = try URLAuthority(parsing: authorityText) } catch { throw .invalidURL(text, reason: error.reason) }
        host = authority.host
        port = authority.port ?? 554
        path = pathText.isEmpty ? "/" : String(pathText)
        user = authority.user
        password = authority.password
    }

    /// The URL as requests name it: without the credentials.
    public var requestURL: String {
        "rtsp://\(URLAuthority.bracketed(host)):\(port)\(path)"
    }

    /// The same as ``requestURL``.
    public var description: String { requestURL }

    /// The address to connect to (a numeric host; names other than `localhost` are not resolved).
    /// - Throws: ``RTSPClientError/invalidURL(_:reason:)`` when the host is not an address.
    public func socketAddress() throws(RTSPClientError) -> SocketAddress {
        do { return try URLAuthority.socketAddress(host: host, port: port) } catch { throw .invalidURL(requestURL, reason: error.reason) }
    }
}

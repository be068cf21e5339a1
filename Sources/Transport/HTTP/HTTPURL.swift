import POSIX

/// An `http://` or `https://host[:port][/path][?query]` URL (RFC 9110 §4.2.1 and §4.2.2; the authority as RFC 3986
/// §3.2 reads it), split into where to connect, whether over TLS, the `Host` field and the request target.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// Whether the scheme is `https` (RFC 9110 §4.2.2: the exchange runs over TLS, and the server's certificate must
    /// name the host).
    public var isSecure: Bool
    /// The host name or address (IPv6 without its brackets).
    public var host: String
    /// The TCP port (80 for `http`, 443 for `https` when the URL names none).
    public var port: UInt16
    /// The request target: the path with its leading `/` and any query (`/` when empty); a fragment is dropped.
    public var target: String

    /// Reads a URL.
    /// - Parameter text: for example `http://127.0.0.1:8080/live/whip` or `https://whip.example/ingest`.
    /// - Throws: ``HTTPClientError/invalidURL(_:reason:)`` naming what is wrong.
    public init(parsing text: String) throws(HTTPClientError) {
        let lowered = text.lowercased()
        let schemeLength: Int
        if lowered.hasPrefix("https://") {
            isSecure = true
            schemeLength = "https://".count
        } else if lowered.hasPrefix("http://") {
            isSecure = false
            schemeLength = "http://".count
        } else {
            throw .invalidURL(text, reason: "does not start with http:// or https://")
        }
        let (authorityText, pathText) = URLAuthority.split(text.dropFirst(schemeLength))
        let authority: URLAuthority
        do { authority = try URLAuthority(parsing: authorityText) } catch { throw .invalidURL(text, reason: error.reason) }
        guard authority.user == nil else { throw .invalidURL(text, reason: "carries user information, which HTTP URLs must not") }
        host = authority.host
        port = authority.port ?? (isSecure ? 443 : 80)
        let withoutFragment = pathText.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        target = withoutFragment.isEmpty ? "/" : String(withoutFragment)
    }

    /// `http` or `https`.
    public var scheme: String { isSecure ? "https" : "http" }

    /// The scheme's default port (RFC 9110 §4.2.1, §4.2.2): 80 or 443.
    public var defaultPort: UInt16 { isSecure ? 443 : 80 }

    /// The `Host` field (RFC 9110 §7.2): the host, and the port when it is not the scheme's default.
    public var hostField: String {
        port == defaultPort ? URLAuthority.bracketed(host) : "\(URLAuthority.bracketed(host)):\(port)"
    }

    /// `scheme://host[:port]`, the origin another reference on the same server is resolved against.
    public var origin: String { "\(scheme)://\(hostField)" }

    /// The URL another target resolves to on the same server (a `Location` such as `/whip/abc`, or a whole URL).
    /// - Parameter reference: an absolute path, a relative path, or an `http://` / `https://` URL.
    /// - Returns: the URL.
    /// - Throws: ``HTTPClientError/invalidURL(_:reason:)`` for a whole URL that does not parse.
    public func resolving(_ reference: String) throws(HTTPClientError) -> HTTPURL {
        if reference.lowercased().hasPrefix("http://") || reference.lowercased().hasPrefix("https://") { return try HTTPURL(parsing: reference) }
        guard reference.hasPrefix("/") else {
            // A relative path: against the directory of this target (RFC 3986 §5.2.3).
            let directory = target.split(separator: "?").first.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? ""
            var resolved = self
            resolved.target = directory + "/" + reference
            return resolved
        }
        var resolved = self
        resolved.target = reference
        return resolved
    }

    /// `http://127.0.0.1:8080/live/whip`.
    public var description: String { "\(origin)\(target)" }
}

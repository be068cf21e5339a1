import POSIX

/// An `http://host[:port][/path][?query]` URL (RFC 9110 §4.2.1; the authority as RFC 3986 §3.2 reads it), split into
/// where to connect, the `Host` field and the request target.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address (IPv6 without its brackets).
    public var host: String
    /// The TCP port (80 when the URL names none).
    public var port: UInt16
    /// The request target: the path with its leading `/` and any query (`/` when empty); a fragment is dropped.
    public var target: String

    /// Reads a URL.
    /// - Parameter text: for example `http://127.0.0.1:8080/live/whip`.
    /// - Throws: ``HTTPClientError/invalidURL(_:reason:)`` naming what is wrong (`https://` is refused: no TLS yet).
    public init(parsing text: String) throws(HTTPClientError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("https://") { throw .invalidURL(text, reason: "is https://, which this client does not speak yet") }
        guard lowered.hasPrefix("http://") else { throw .invalidURL(text, reason: "does not start with http://") }
        let (authorityText, pathText) = URLAuthority.split(text.dropFirst("http://".count))
        let authority: URLAuthority
        do { authority = try URLAuthority(parsing: authorityText) } catch { throw .invalidURL(text, reason: error.reason) }
        guard authority.user == nil else { throw .invalidURL(text, reason: "carries user information, which HTTP URLs must not") }
        host = authority.host
        port = authority.port ?? 80
        let withoutFragment = pathText.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        target = withoutFragment.isEmpty ? "/" : String(withoutFragment)
    }

    /// The `Host` field (RFC 9110 §7.2): the host, and the port when it is not 80.
    public var hostField: String {
        port == 80 ? URLAuthority.bracketed(host) : "\(URLAuthority.bracketed(host)):\(port)"
    }

    /// The URL another target resolves to on the same server (a `Location` such as `/whip/abc`, or a whole URL).
    /// - Parameter reference: an absolute path or an `http://` URL.
    /// - Returns: the URL.
    /// - Throws: ``HTTPClientError/invalidURL(_:reason:)`` for anything else.
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
    public var description: String { "http://\(hostField)\(target)" }
}

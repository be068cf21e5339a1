/// An HTTP/1.1 request (RFC 9112 §3): method, target, headers and body.
public struct HTTPRequest: Hashable, Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The request target as written: origin form `/live/whip?x=1`, or `*` for a server-wide OPTIONS.
    public var target: String
    /// The protocol version, `HTTP/1.1` (or `HTTP/1.0` as read).
    public var version: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body (already de-chunked when it arrived chunked).
    public var body: [UInt8]

    /// A request.
    /// - Parameters:
    ///   - method: the method.
    ///   - target: the request target (`/path?query`).
    ///   - headers: the header fields (`Host` is the caller's: RFC 9112 §3.2 requires it in HTTP/1.1).
    ///   - body: the body.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = "HTTP/1.1"
        self.headers = headers
        self.body = body
    }

    /// The target's path, before any `?` (RFC 9112 §3.2.1), `/` for an empty one.
    public var path: String {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return path.isEmpty ? "/" : path
    }

    /// The target's query, after the first `?`, or `nil`.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// Whether the connection stays open after the response (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool { HTTPHeaders.keepsAlive(version: version, connection: headers["Connection"]) }

    /// The request as bytes: request line, headers, empty line, body (RFC 9112 §2.1). `Content-Length` is set when there
    /// is a body or the method carries one (POST, PUT, PATCH); a `Transfer-Encoding` of the caller's is left out.
    /// - Returns: the bytes.
    public func serialized() -> [UInt8] {
        var headers = headers
        headers.remove("Transfer-Encoding")
        if !body.isEmpty || method == .post || method == .put || method == .patch {
            headers.set("Content-Length", String(body.count))
        } else {
            headers.remove("Content-Length")
        }
        return HTTPHeaders.serialize(startLine: "\(method.rawValue) \(HTTPHeaders.clean(target)) \(version)", headers: headers, body: body)
    }
}

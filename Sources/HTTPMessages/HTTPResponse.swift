/// An HTTP/1.1 response (RFC 9112 §4): status, headers and body.
public struct HTTPResponse: Hashable, Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The protocol version, `HTTP/1.1`.
    public var version: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body (de-chunked when it arrived chunked).
    public var body: [UInt8]

    /// A response.
    /// - Parameters:
    ///   - status: the status.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.version = "HTTP/1.1"
        self.headers = headers
        self.body = body
    }

    /// Whether the connection stays open after it (RFC 9112 §9.3), as for ``HTTPRequest/keepsAlive``.
    public var keepsAlive: Bool { HTTPHeaders.keepsAlive(version: version, connection: headers["Connection"]) }

    /// The response as bytes: status line, headers with `Content-Length` (none for 1xx, 204 and 304), empty line,
    /// and the body unless `includingBody` is `false` — the answer to a HEAD, whose `Content-Length` is the
    /// length a GET would get (RFC 9110 §9.3.2).
    /// - Parameter includingBody: whether the body follows the headers.
    /// - Returns: the bytes.
    public func serialized(includingBody: Bool = true) -> [UInt8] {
        var headers = headers
        headers.remove("Transfer-Encoding")
        if status.forbidsBody {
            headers.remove("Content-Length")
        } else {
            headers.set("Content-Length", String(body.count))
        }
        let body = includingBody && !status.forbidsBody ? body : []
        return HTTPHeaders.serialize(startLine: "\(version) \(status.code) \(HTTPHeaders.clean(status.reason))", headers: headers, body: body)
    }
}

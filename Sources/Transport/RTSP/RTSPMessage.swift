/// An RTSP request (RFC 2326 §6): method, URI, headers and body.
public struct RTSPRequest: Hashable, Sendable {
    /// The method.
    public var method: RTSPMethod
    /// The Request-URI as written (`rtsp://host:8554/live/trackID=0`, or `*` for OPTIONS).
    public var uri: String
    /// The protocol version, `RTSP/1.0`.
    public var version: String
    /// The header fields.
    public var headers: RTSPHeaders
    /// The body (an SDP for ANNOUNCE, parameters for SET_PARAMETER); its length is `Content-Length`.
    public var body: [UInt8]

    /// A request. `cseq`, when given, is set as the `CSeq` header (RFC 2326 §12.17).
    /// - Parameters:
    ///   - method: the method.
    ///   - uri: the Request-URI.
    ///   - cseq: the sequence number, or `nil` to leave `headers` as given.
    ///   - headers: other header fields.
    ///   - body: the body.
    public init(method: RTSPMethod, uri: String, cseq: Int? = nil, headers: RTSPHeaders = RTSPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.uri = uri
        self.version = "RTSP/1.0"
        self.headers = headers
        self.body = body
        if let cseq { self.headers.set("CSeq", String(cseq)) }
    }

    /// The `CSeq` header as a number (RFC 2326 §12.17), or `nil` when it is missing or not a non-negative decimal
    /// number of at most 9 digits — the server answers 400 then.
    public var cseq: Int? { RTSPResponse.parseCSeq(headers["CSeq"]) }

    /// The request as bytes: request line, headers (with `Content-Length` when there is a body), empty line, body
    /// (RFC 2326 §6).
    /// - Returns: the bytes.
    public func serialized() -> [UInt8] {
        RTSPResponse.serialize(startLine: "\(method.rawValue) \(uri) \(version)", headers: headers, body: body)
    }
}

/// An RTSP response (RFC 2326 §7): status, headers and body.
public struct RTSPResponse: Hashable, Sendable {
    /// The status.
    public var status: RTSPStatus
    /// The protocol version, `RTSP/1.0`.
    public var version: String
    /// The header fields.
    public var headers: RTSPHeaders
    /// The body (an SDP for DESCRIBE).
    public var body: [UInt8]

    /// A response. `cseq`, when given, is set as the `CSeq` header (it must echo the request's, RFC 2326 §12.17).
    /// - Parameters:
    ///   - status: the status.
    ///   - cseq: the request's sequence number, or `nil`.
    ///   - headers: other header fields.
    ///   - body: the body.
    public init(status: RTSPStatus, cseq: Int? = nil, headers: RTSPHeaders = RTSPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.version = "RTSP/1.0"
        self.headers = headers
        self.body = body
        if let cseq { self.headers.set("CSeq", String(cseq)) }
    }

    /// The `CSeq` header as a number, or `nil` when missing or malformed.
    public var cseq: Int? { Self.parseCSeq(headers["CSeq"]) }

    /// The response as bytes: status line, headers (with `Content-Length` when there is a body), empty line, body
    /// (RFC 2326 §7).
    /// - Returns: the bytes.
    public func serialized() -> [UInt8] {
        Self.serialize(startLine: "\(version) \(status.code) \(status.reason)", headers: headers, body: body)
    }

    static func parseCSeq(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    static func serialize(startLine: String, headers: RTSPHeaders, body: [UInt8]) -> [UInt8] {
        var text = startLine + "\r\n"
        var headers = headers
        if !body.isEmpty { headers.set("Content-Length", String(body.count)) }
        // A value never carries a line break into the output (no header injection from caller-given text).
        for field in headers { text += "\(clean(field.name)): \(clean(field.value))\r\n" }
        text += "\r\n"
        return Array(text.utf8) + body
    }

    private static func clean(_ text: String) -> String {
        text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
            ? String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 }) : text
    }
}

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

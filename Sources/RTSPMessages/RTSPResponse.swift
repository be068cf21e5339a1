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

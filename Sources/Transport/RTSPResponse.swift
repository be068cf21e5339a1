/// An RTSP response as a client reads it (RFC 2326 §7): the status line, the headers in order and the body.
public struct RTSPResponse: Sendable, Hashable {
    /// The status code, for example 200.
    public var status: Int
    /// The reason phrase, for example `OK`.
    public var reason: String
    /// The headers as (name, value), in the order sent.
    public var headers: [(name: String, value: String)]
    /// The body (Content-Length bytes).
    public var body: [UInt8]

    /// The first value of a header, the name compared without case (RFC 2326 §4.2).
    /// - Parameter name: the header name.
    /// - Returns: the value, if present.
    public subscript(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Every value of a header (a server may send several `WWW-Authenticate`).
    /// - Parameter name: the header name.
    /// - Returns: the values in order.
    public func values(of name: String) -> [String] {
        let lowered = name.lowercased()
        return headers.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// The CSeq, if present and a number.
    public var sequenceNumber: Int? { self["CSeq"].flatMap { Int($0.trimmingSpaces()) } }

    public static func == (left: RTSPResponse, right: RTSPResponse) -> Bool {
        left.status == right.status && left.reason == right.reason && left.body == right.body
            && left.headers.map(\.name) == right.headers.map(\.name) && left.headers.map(\.value) == right.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}

extension String {
    /// The text without spaces and tabs at either end (header values, RFC 2326 §4.2).
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

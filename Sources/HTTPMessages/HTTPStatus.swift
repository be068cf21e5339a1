/// An HTTP response status (RFC 9110 §15): its code and reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code, for example 200.
    public var code: Int
    /// The reason phrase, for example `OK` (RFC 9112 §4: clients ignore it).
    public var reason: String

    /// A status.
    /// - Parameters:
    ///   - code: the code (100…999).
    ///   - reason: the phrase.
    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// A status with the reason phrase RFC 9110 §15 gives its code (an empty phrase for a code it does not name).
    /// - Parameter code: the code.
    public init(code: Int) {
        self.init(code: code, reason: Self.reasons[code] ?? "")
    }

    /// `200 OK`, for example.
    public var description: String { "\(code) \(reason)" }

    /// Whether the code is 2xx.
    public var isSuccess: Bool { (200..<300).contains(code) }

    /// Whether a response with this code never has a body (1xx, 204, 304: RFC 9112 §6.3 rule 1).
    public var forbidsBody: Bool { (100..<200).contains(code) || code == 204 || code == 304 }

    /// 200 OK.
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created (with `Location`), the WHIP/WHEP answer.
    public static let created = HTTPStatus(code: 201)
    /// 204 No Content, the CORS preflight's answer.
    public static let noContent = HTTPStatus(code: 204)
    /// 400 Bad Request.
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized (with `WWW-Authenticate: Bearer`).
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden.
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found.
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed (with `Allow`).
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 408 Request Timeout: the request did not arrive in time.
    public static let requestTimeout = HTTPStatus(code: 408)
    /// 411 Length Required.
    public static let lengthRequired = HTTPStatus(code: 411)
    /// 413 Content Too Large.
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// 414 URI Too Long.
    public static let uriTooLong = HTTPStatus(code: 414)
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 431 Request Header Fields Too Large (RFC 6585 §5).
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPStatus(code: 500)
    /// 501 Not Implemented.
    public static let notImplemented = HTTPStatus(code: 501)
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 505 HTTP Version Not Supported.
    public static let versionNotSupported = HTTPStatus(code: 505)

    private static let reasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 422: "Unprocessable Content", 428: "Precondition Required",
        429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        505: "HTTP Version Not Supported",
    ]
}

/// An RTSP response status (RFC 2326 §7.1.1, §11): its code and reason phrase.
public struct RTSPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code, for example 200.
    public var code: Int
    /// The reason phrase, for example `OK`.
    public var reason: String

    /// A status.
    /// - Parameters:
    ///   - code: the code (100…999).
    ///   - reason: the phrase.
    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `200 OK`, for example.
    public var description: String { "\(code) \(reason)" }

    /// Whether the code is 2xx.
    public var isSuccess: Bool { (200..<300).contains(code) }

    /// 200 OK.
    public static let ok = RTSPStatus(code: 200, reason: "OK")
    /// 400 Bad Request: the message is malformed (a bad CSeq, a bad header).
    public static let badRequest = RTSPStatus(code: 400, reason: "Bad Request")
    /// 401 Unauthorized: send credentials (a `WWW-Authenticate` challenge goes with it).
    public static let unauthorized = RTSPStatus(code: 401, reason: "Unauthorized")
    /// 403 Forbidden.
    public static let forbidden = RTSPStatus(code: 403, reason: "Forbidden")
    /// 404 Not Found: no stream at that path.
    public static let notFound = RTSPStatus(code: 404, reason: "Not Found")
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = RTSPStatus(code: 405, reason: "Method Not Allowed")
    /// 413 Request Entity Too Large: the body is over the limit.
    public static let requestEntityTooLarge = RTSPStatus(code: 413, reason: "Request Entity Too Large")
    /// 414 Request-URI Too Large: the request line is over the limit.
    public static let requestURITooLarge = RTSPStatus(code: 414, reason: "Request-URI Too Large")
    /// 453 Not Enough Bandwidth (used for "too many clients").
    public static let notEnoughBandwidth = RTSPStatus(code: 453, reason: "Not Enough Bandwidth")
    /// 454 Session Not Found.
    public static let sessionNotFound = RTSPStatus(code: 454, reason: "Session Not Found")
    /// 455 Method Not Valid in This State.
    public static let methodNotValidInThisState = RTSPStatus(code: 455, reason: "Method Not Valid in This State")
    /// 459 Aggregate Operation Not Allowed.
    public static let aggregateOperationNotAllowed = RTSPStatus(code: 459, reason: "Aggregate Operation Not Allowed")
    /// 461 Unsupported Transport.
    public static let unsupportedTransport = RTSPStatus(code: 461, reason: "Unsupported Transport")
    /// 500 Internal Server Error.
    public static let internalServerError = RTSPStatus(code: 500, reason: "Internal Server Error")
    /// 501 Not Implemented: an unknown method.
    public static let notImplemented = RTSPStatus(code: 501, reason: "Not Implemented")
    /// 503 Service Unavailable: the server is full.
    public static let serviceUnavailable = RTSPStatus(code: 503, reason: "Service Unavailable")
    /// 505 RTSP Version Not Supported.
    public static let versionNotSupported = RTSPStatus(code: 505, reason: "RTSP Version Not Supported")
}

/// An HTTP request method (RFC 9110 §9): the common ones by name, any other token kept as written so that a server
/// can answer it with 501 Not Implemented.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as written, for example `GET` (methods are case-sensitive, RFC 9110 §9.1).
    public let rawValue: String

    /// A method from its token.
    /// - Parameter rawValue: the token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The token.
    public var description: String { rawValue }

    /// `GET` (RFC 9110 §9.3.1).
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD` (§9.3.2): a `GET` whose response has no body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST` (§9.3.3), the WHIP/WHEP offer.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT` (§9.3.4).
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE` (§9.3.5), the end of a WHIP/WHEP session.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS` (§9.3.7), the CORS preflight.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH` (RFC 5789), the trickle-ICE update of WHIP/WHEP.
    public static let patch = HTTPMethod(rawValue: "PATCH")
}

/// Cross-origin resource sharing (the Fetch standard's CORS protocol) as a server answers it: which origins may read
/// responses, and what a preflight (`OPTIONS` with `Access-Control-Request-Method`) is told.
public struct HTTPCORSPolicy: Hashable, Sendable {
    /// The origins allowed (`https://player.example`), or `["*"]` for any.
    public var allowedOrigins: [String]
    /// The methods a preflight is told (`Access-Control-Allow-Methods`).
    public var allowedMethods: [HTTPMethod]
    /// The request fields a preflight is told (`Access-Control-Allow-Headers`).
    public var allowedHeaders: [String]
    /// The response fields a page may read (`Access-Control-Expose-Headers`): WHIP/WHEP's `Location`, `ETag`, `Link`.
    public var exposedHeaders: [String]
    /// How long a browser may cache a preflight's answer (`Access-Control-Max-Age`), in seconds.
    public var maximumAge: Int

    /// A policy; the defaults are what a WHIP/WHEP server needs.
    /// - Parameters:
    ///   - allowedOrigins: the origins, `["*"]` for any.
    ///   - allowedMethods: the methods.
    ///   - allowedHeaders: the request fields.
    ///   - exposedHeaders: the response fields pages may read.
    ///   - maximumAge: the preflight cache time in seconds.
    public init(allowedOrigins: [String] = ["*"],
                allowedMethods: [HTTPMethod] = [.get, .head, .post, .patch, .delete, .options],
                allowedHeaders: [String] = ["Authorization", "Content-Type", "If-Match"],
                exposedHeaders: [String] = ["Location", "ETag", "Link"], maximumAge: Int = 86400) {
        self.allowedOrigins = allowedOrigins
        self.allowedMethods = allowedMethods
        self.allowedHeaders = allowedHeaders
        self.exposedHeaders = exposedHeaders
        self.maximumAge = maximumAge
    }

    /// The `Access-Control-Allow-Origin` value for a request's `Origin`, or `nil` when that origin is not allowed.
    /// - Parameter origin: the request's `Origin` field.
    /// - Returns: `*` or the origin itself.
    public func allowedOriginValue(for origin: String) -> String? {
        if allowedOrigins.contains("*") { return "*" }
        return allowedOrigins.contains(origin) ? origin : nil
    }

    /// Adds the fields of an actual (not preflight) response to a cross-origin request.
    /// - Parameters:
    ///   - headers: the response's fields.
    ///   - origin: the request's `Origin`.
    public func decorate(_ headers: inout HTTPHeaders, origin: String) {
        guard let value = allowedOriginValue(for: origin) else { return }
        headers.set("Access-Control-Allow-Origin", value)
        if value != "*" { headers.append("Vary", "Origin") }
        if !exposedHeaders.isEmpty { headers.set("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", ")) }
    }

    /// The answer to a preflight: 204 with the allowed origin, methods and fields, or 403 for an origin not allowed.
    /// - Parameters:
    ///   - origin: the request's `Origin`.
    /// - Returns: the response.
    public func preflightResponse(origin: String) -> HTTPResponse {
        guard let value = allowedOriginValue(for: origin) else { return HTTPResponse(status: .forbidden) }
        var headers = HTTPHeaders()
        headers.set("Access-Control-Allow-Origin", value)
        if value != "*" { headers.append("Vary", "Origin") }
        headers.set("Access-Control-Allow-Methods", allowedMethods.map(\.rawValue).joined(separator: ", "))
        if !allowedHeaders.isEmpty { headers.set("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", ")) }
        headers.set("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", "))
        headers.set("Access-Control-Max-Age", String(maximumAge))
        return HTTPResponse(status: .noContent, headers: headers)
    }
}

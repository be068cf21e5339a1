import POSIX

/// A request as a route's handler sees it: the message, who sent it, and what of its path follows the route's prefix.
public struct HTTPServerRequest: Sendable {
    /// The request (a HEAD arrives as itself; its response's body is not sent).
    public var request: HTTPRequest
    /// The client's address.
    public var peer: SocketAddress
    /// The path after the route's prefix, without a leading `/` (`abc` for `/whip/abc` under `/whip`).
    public var remainingPath: String

    /// A request.
    /// - Parameters:
    ///   - request: the message.
    ///   - peer: the client.
    ///   - remainingPath: the path after the prefix.
    public init(request: HTTPRequest, peer: SocketAddress, remainingPath: String) {
        self.request = request
        self.peer = peer
        self.remainingPath = remainingPath
    }

    /// The token of `Authorization: Bearer TOKEN` (RFC 6750 §2.1), or `nil`.
    public var bearerToken: String? { HTTPRoute.bearerToken(request.headers["Authorization"]) }
}

/// What answers requests of one method under one path prefix.
public struct HTTPRoute: Sendable {
    /// The handler: the request in, the response out (the server adds `Content-Length`, `Server`, CORS fields).
    public typealias Handler = @Sendable (HTTPServerRequest) async -> HTTPResponse

    /// The method (a GET route answers HEAD too).
    public var method: HTTPMethod
    /// The path prefix, whole segments: `/live` matches `/live` and `/live/whep`, not `/lively`.
    public var pathPrefix: String
    /// Whether the configuration's bearer-token check applies.
    public var requiresAuthorization: Bool
    /// The handler.
    public var handler: Handler

    /// A route.
    /// - Parameters:
    ///   - method: the method.
    ///   - pathPrefix: the prefix (a leading `/` is added if missing; a trailing one is ignored).
    ///   - requiresAuthorization: whether to check `Authorization: Bearer`.
    ///   - handler: the handler.
    public init(_ method: HTTPMethod, _ pathPrefix: String, requiresAuthorization: Bool = false, handler: @escaping Handler) {
        self.method = method
        self.pathPrefix = Self.normalized(pathPrefix)
        self.requiresAuthorization = requiresAuthorization
        self.handler = handler
    }

    /// What of `path` follows the prefix (without its leading `/`), or `nil` when the prefix does not match whole
    /// segments of it.
    /// - Parameter path: a request's path.
    /// - Returns: the remainder.
    public func remainder(of path: String) -> String? {
        let path = Self.normalized(path)
        if pathPrefix == "/" { return String(path.dropFirst()) }
        guard path.hasPrefix(pathPrefix) else { return nil }
        let rest = path.dropFirst(pathPrefix.count)
        if rest.isEmpty { return "" }
        guard rest.hasPrefix("/") else { return nil }
        return String(rest.dropFirst())
    }

    static func normalized(_ path: String) -> String {
        var path = path.hasPrefix("/") ? path : "/" + path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: " \t")
        return token.isEmpty ? nil : token
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

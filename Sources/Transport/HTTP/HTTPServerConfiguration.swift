import POSIX

/// How an ``HTTPServer`` listens and what it allows.
public struct HTTPServerConfiguration: Sendable {
    /// Where it listens, for example `SocketAddress.any(.ipv4, port: 8080)`; port 0 lets the system choose.
    public var address: SocketAddress
    /// The most connections at once; one more is answered 503 and closed.
    public var maximumConnections: Int
    /// The caps on each request: an over-long request line is answered 414, too many or too large header fields 431,
    /// a larger body 413 — and that connection alone is closed.
    public var limits: HTTPMessageLimits
    /// A request must arrive whole within this long of its first byte, or the connection is answered 408 and
    /// closed (a slow-loris client holds nothing for longer).
    public var requestTimeout: Duration
    /// A kept-alive connection with no request for this long is closed.
    public var idleTimeout: Duration
    /// The cross-origin policy (players are pages of other origins), or `nil` for none.
    public var cors: HTTPCORSPolicy?
    /// Checks the `Authorization: Bearer` token of a request to a route that asks for it: the token (`nil` when the
    /// request has none) and the request; `false` answers 401 with `WWW-Authenticate: Bearer`. `nil` lets every
    /// request through.
    public var bearerTokenValidator: (@Sendable (_ token: String?, _ request: HTTPRequest) -> Bool)?
    /// The `Server` field.
    public var serverName: String

    /// A configuration.
    /// - Parameters:
    ///   - address: where to listen.
    ///   - maximumConnections: the most connections at once.
    ///   - limits: the caps on each request.
    ///   - requestTimeout: the time a request may take to arrive.
    ///   - idleTimeout: how long a kept-alive connection may wait for its next request.
    ///   - cors: the cross-origin policy.
    ///   - bearerTokenValidator: the token check of routes that ask for it.
    ///   - serverName: the `Server` field.
    public init(address: SocketAddress, maximumConnections: Int = 256, limits: HTTPMessageLimits = HTTPMessageLimits(),
                requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30), cors: HTTPCORSPolicy? = HTTPCORSPolicy(),
                bearerTokenValidator: (@Sendable (_ token: String?, _ request: HTTPRequest) -> Bool)? = nil,
                serverName: String = "StreamKit") {
        self.address = address
        self.maximumConnections = maximumConnections
        self.limits = limits
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.cors = cors
        self.bearerTokenValidator = bearerTokenValidator
        self.serverName = serverName
    }
}

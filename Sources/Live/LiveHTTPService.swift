import POSIX
import Transport

/// The live stream's HTTP/1.1 service: one ``HTTPServer`` on one port, with its own event loop, on which any number of
/// endpoints mount their routes under paths of their own — the live HLS playlist and segments
/// (``HLSHTTPDestination``), and later WHEP playback or a WHIP ingest — so `serve --http-port N` hands all of them out
/// on the same port.
///
/// Cross-origin requests are allowed from any origin (players are pages of other origins), the `OPTIONS` preflight
/// answered; each connection is served on its own, so a slow or hostile client (one that never reads, sends half a
/// request or garbage) loses only its own connection (``HTTPServerConfiguration/requestTimeout``).
///
/// ```swift
/// let service = try LiveHTTPService(address: SocketAddress(host: "0.0.0.0", port: 8080))
/// pipeline.add(try HLSHTTPDestination(server: service.server, path: "live"))
/// service.server.addRoute(HTTPRoute(.post, "/live/whep") { request in … })   // another endpoint, same port
/// ```
public final class LiveHTTPService: Sendable {
    /// The server: mount routes on it (``HTTPServer/addRoute(_:)``).
    public let server: HTTPServer
    private let loop: EventLoop

    /// The cross-origin policy of the service: any origin, the methods HLS, WHIP and WHEP use, `Range` besides the
    /// default request fields.
    public static let corsPolicy = HTTPCORSPolicy(allowedOrigins: ["*"], allowedHeaders: ["Authorization", "Content-Type", "If-Match", "Range"])

    /// Binds the port and starts serving (routes can be added at any time).
    /// - Parameters:
    ///   - address: where to listen (port 0: any free port; ``baseURL`` says which).
    ///   - configure: changes to the server's configuration (timeouts, limits, a bearer-token check) before it binds.
    /// - Throws: `TransportError` when the address cannot be bound.
    public init(address: SocketAddress, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws(TransportError) {
        var configuration = HTTPServerConfiguration(address: address, cors: Self.corsPolicy)
        configure(&configuration)
        let loop = try EventLoop()
        do {
            server = try HTTPServer(configuration: configuration, on: loop)
        } catch {
            loop.shutdown()
            throw error
        }
        self.loop = loop
        server.start()
    }

    /// `http://HOST:PORT` of the address the server listens on (an IPv6 host in brackets).
    public var baseURL: String {
        let address = server.localAddress
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        return "http://\(host):\(address.port)"
    }

    /// Stops the server (every connection closes) and its event loop.
    public func stop() {
        server.stop()
        loop.shutdown()
    }
}

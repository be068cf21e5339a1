import POSIX
import Synchronization

/// A small HTTP/1.1 client (RFC 9112) for signalling: GET, POST, PATCH, DELETE and any other method; bodies framed by
/// `Content-Length`, chunked, or the server's close; keep-alive reuse of one idle connection per server; a timeout
/// on each whole exchange (connect, TLS handshake, request, whole response). `https://` runs the same exchange over
/// a ``TLSConnection`` (RFC 9110 §4.2.2, RFC 9112 §9.1: TLS first, then HTTP/1.1 on it) whose server certificate is
/// checked against ``trust`` and must name the URL's host; a build without the `OpenSSL` trait refuses `https://`
/// with ``HTTPClientError/tlsUnavailable(_:)`` before it connects.
///
/// ```swift
/// let client = HTTPClient(on: loop)
/// let answer = try await client.send(.post, to: "http://127.0.0.1:8080/live/whip", body: Array(offer.utf8),
///                                    headers: ["Content-Type": "application/sdp"])
/// let session = answer.headers["Location"]
/// ```
public final class HTTPClient: Sendable {
    /// The loop connections run on.
    public let loop: EventLoop
    /// The longest an exchange (connect, request, whole response) may take.
    public let timeout: Duration
    /// The caps on each response.
    public let limits: HTTPMessageLimits
    /// The certificates an `https://` server may present (the system's certificate authorities unless given).
    public let trust: TLSTrust
    /// Idle kept-alive connections by `scheme|host|port`.
    private let idle = Mutex<[String: any ByteStreamConnection]>([:])

    /// A client.
    /// - Parameters:
    ///   - loop: the event loop.
    ///   - timeout: the longest an exchange may take (10 s unless given).
    ///   - limits: the caps on each response.
    ///   - trust: the certificates an `https://` server may present (``TLSTrust/systemRoots`` unless given;
    ///     ``TLSTrust/certificateFile(_:)`` for a private CA or a self-signed server, what curl calls `--cacert`).
    public init(on loop: EventLoop, timeout: Duration = .seconds(10), limits: HTTPMessageLimits = HTTPMessageLimits(),
                trust: TLSTrust = .systemRoots) {
        self.loop = loop
        self.timeout = timeout
        self.limits = limits
        self.trust = trust
    }

    /// Sends a request and waits for its response.
    /// - Parameters:
    ///   - method: the method.
    ///   - url: an `http://` or `https://` URL.
    ///   - body: the body (a `Content-Length` is written for POST, PUT and PATCH even when empty).
    ///   - headers: more fields (`Host` and `Content-Length` are the client's).
    /// - Returns: the response (any status).
    /// - Throws: ``HTTPClientError``.
    public func send(_ method: HTTPMethod, to url: String, body: [UInt8] = [], headers: HTTPHeaders = HTTPHeaders()) async throws(HTTPClientError) -> HTTPResponse {
        let parsed = try HTTPURL(parsing: url)
        var request = HTTPRequest(method: method, target: parsed.target, headers: headers, body: body)
        request.headers.set("Host", parsed.hostField)
        return try await send(request, to: parsed)
    }

    /// Sends a prepared request to a server.
    /// - Parameters:
    ///   - request: the request (its `Host` as given, or the URL's).
    ///   - url: where to.
    /// - Returns: the response.
    /// - Throws: ``HTTPClientError``.
    public func send(_ request: HTTPRequest, to url: HTTPURL) async throws(HTTPClientError) -> HTTPResponse {
        var request = request
        if request.headers["Host"] == nil { request.headers.set("Host", url.hostField) }
        if url.isSecure, !TLSConnection.isAvailable { throw .tlsUnavailable(url.description) }
        let key = "\(url.scheme)|\(url.host)|\(url.port)"
        // A pooled connection may have been closed by the server meanwhile: a failure before any response byte on it
        // is retried once on a new connection (only for requests that are safe to repeat, or that the server
        // cannot have seen: RFC 9112 §9.3.1).
        if let pooled = idle.withLock({ $0.removeValue(forKey: key) }) {
            do {
                return try await exchange(request, on: pooled, key: key)
            } catch {
                pooled.close()
                switch error {
                case .closedBeforeResponse, .transport: break
                default: throw error
                }
            }
        }
        let address: SocketAddress
        do { address = try URLAuthority.socketAddress(host: url.host, port: url.port) } catch {
            throw .invalidURL(url.description, reason: error.reason)
        }
        let tcp = try await connect(to: address)
        let connection: any ByteStreamConnection = url.isSecure ? try await secure(tcp, for: url) : tcp
        return try await exchange(request, on: connection, key: key)
    }

    /// Closes the idle connections.
    public func close() {
        let connections = idle.withLock { idle in
            defer { idle.removeAll() }
            return Array(idle.values)
        }
        for connection in connections { connection.close() }
    }

    private func connect(to address: SocketAddress) async throws(HTTPClientError) -> TCPConnection {
        let timedOut = Atomic<Bool>(false)
        let task = Task { [loop] () throws(TransportError) -> TCPConnection in try await TCPConnection.connect(to: address, on: loop) }
        let timer = loop.schedule(after: timeout) {
            timedOut.store(true, ordering: .sequentiallyConsistent)
            task.cancel()
        }
        defer { timer?.cancel() }
        do {
            return try await task.value
        } catch {
            if timedOut.load(ordering: .sequentiallyConsistent) { throw .timedOut(timeout) }
            throw .transport(error as? TransportError ?? .cancelled)
        }
    }

    /// Runs the TLS handshake on a new connection (RFC 8446 §4) under the timeout: the certificate is checked against
    /// ``trust`` and must name the URL's host (RFC 9110 §4.3.4, RFC 6125; an IP address against its IP SANs).
    private func secure(_ tcp: TCPConnection, for url: HTTPURL) async throws(HTTPClientError) -> TLSConnection {
        let timedOut = Atomic<Bool>(false)
        let timer = loop.schedule(after: timeout) {
            timedOut.store(true, ordering: .sequentiallyConsistent)
            tcp.close()
        }
        defer { timer?.cancel() }
        do {
            return try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(serverName: url.host, trust: trust))
        } catch {
            if timedOut.load(ordering: .sequentiallyConsistent) { throw .timedOut(timeout) }
            throw .tls(error)
        }
    }

    /// Writes the request and reads its response on one connection, under the timeout; a connection that stays
    /// usable goes back to the pool.
    private func exchange(_ request: HTTPRequest, on connection: any ByteStreamConnection, key: String) async throws(HTTPClientError) -> HTTPResponse {
        let timedOut = Atomic<Bool>(false)
        let timer = loop.schedule(after: timeout) {
            timedOut.store(true, ordering: .sequentiallyConsistent)
            connection.close()
        }
        defer { timer?.cancel() }
        var parser = HTTPResponseParser(limits: limits)
        var receivedAny = false
        do {
            try await connection.write(request.serialized())
            while true {
                let bytes = try await connection.read(maximumCount: 65536)
                if bytes.isEmpty {
                    parser.finish()
                    guard receivedAny else { throw HTTPClientError.closedBeforeResponse }
                    guard let response = try parser.next(answering: request.method) else { throw HTTPClientError.closedBeforeResponse }
                    connection.close()
                    return response
                }
                receivedAny = true
                parser.append(bytes)
                if let response = try parser.next(answering: request.method) {
                    if request.keepsAlive, response.keepsAlive, parser.bufferedByteCount == 0 {
                        let replaced = idle.withLock { idle -> (any ByteStreamConnection)? in
                            defer { idle[key] = connection }
                            return idle[key]
                        }
                        replaced?.close()
                    } else {
                        connection.close()
                    }
                    return response
                }
            }
        } catch let error as HTTPClientError {
            connection.close()
            if timedOut.load(ordering: .sequentiallyConsistent) { throw .timedOut(timeout) }
            throw error
        } catch let error as TransportError {
            connection.close()
            if timedOut.load(ordering: .sequentiallyConsistent) { throw .timedOut(timeout) }
            throw receivedAny ? .transport(error) : (error == .closed ? .closedBeforeResponse : .transport(error))
        } catch let error as HTTPParseError {
            connection.close()
            throw .malformedResponse(error)
        } catch {
            connection.close()
            throw .closedBeforeResponse
        }
    }
}

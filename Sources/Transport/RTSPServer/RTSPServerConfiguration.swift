import POSIX

/// How an ``RTSPServer`` listens and what it allows.
public struct RTSPServerConfiguration: Sendable {
    /// Where RTSP listens (TCP), for example `SocketAddress.any(.ipv4, port: 8554)`.
    public var address: SocketAddress
    /// The server's UDP RTP port (RTCP is the next one); 0 lets the system choose a pair.
    public var rtpPort: UInt16
    /// The most RTSP connections at once; one more is answered 503 and closed.
    public var maximumConnections: Int
    /// The most sessions (SETUP clients) at once; one more is answered 453.
    public var maximumSessions: Int
    /// A session with no request and no RTCP from its client for this long is torn down (RFC 2326 §12.37); its
    /// `Session` header says so (`timeout=`, whole seconds, at least 1).
    public var sessionTimeout: Duration
    /// The bound of each client's send queue (interleaved media and responses); a client whose queue is full is
    /// dropped.
    public var clientQueueCapacity: Int
    /// The kernel send buffer of each client socket (`SO_SNDBUF`), or `nil` for the system's; smaller keeps less
    /// media in flight to a slow client, so it is found out (and dropped) sooner.
    public var socketSendBufferSize: Int?
    /// If set, every request but OPTIONS needs these credentials (Digest, or Basic if it allows).
    public var authenticator: RTSPServerAuthenticator?
    /// The caps on each request.
    public var limits: RTSPMessageLimits
    /// The `Server` header.
    public var serverName: String

    /// A configuration.
    /// - Parameters:
    ///   - address: where to listen.
    ///   - rtpPort: the UDP RTP port (0: any pair).
    ///   - maximumConnections: the most RTSP connections.
    ///   - maximumSessions: the most sessions.
    ///   - sessionTimeout: the keep-alive timeout.
    ///   - clientQueueCapacity: the bound of each client's send queue, in bytes.
    ///   - socketSendBufferSize: the kernel send buffer of each client socket, if not the system's.
    ///   - authenticator: credentials to require, if any.
    ///   - limits: the request caps.
    ///   - serverName: the `Server` header.
    public init(address: SocketAddress, rtpPort: UInt16 = 0, maximumConnections: Int = 64, maximumSessions: Int = 64,
                sessionTimeout: Duration = .seconds(60), clientQueueCapacity: Int = 512 * 1024,
                socketSendBufferSize: Int? = nil, authenticator: RTSPServerAuthenticator? = nil, limits: RTSPMessageLimits = RTSPMessageLimits(),
                serverName: String = "StreamKit") {
        self.address = address
        self.rtpPort = rtpPort
        self.maximumConnections = maximumConnections
        self.maximumSessions = maximumSessions
        self.sessionTimeout = sessionTimeout
        self.clientQueueCapacity = clientQueueCapacity
        self.socketSendBufferSize = socketSendBufferSize
        self.authenticator = authenticator
        self.limits = limits
        self.serverName = serverName
    }

    /// The timeout in whole seconds, as the `Session` header writes it.
    var timeoutSeconds: Int { max(1, Int(sessionTimeout.components.seconds)) }
}

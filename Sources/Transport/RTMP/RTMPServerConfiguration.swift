import POSIX

/// Where an ``RTMPServer`` listens, which streams it lets peers publish and play, and its caps.
public struct RTMPServerConfiguration: Sendable {
    /// Where to listen (port 0 lets the system choose; 1935 is RTMP's own).
    public var address: SocketAddress
    /// Decides each publish and play; a refused publisher gets `NetStream.Publish.BadName`, a refused player
    /// `NetStream.Play.Failed`, and its connection is closed. Everything is allowed by default.
    public var authorize: @Sendable (RTMPStreamRequest) -> Bool
    /// The caps on what each peer sends.
    public var limits: RTMPLimits
    /// The chunk size the server sends with. 4096 by default.
    public var chunkSize: Int
    /// How many connections may be open at once; more are closed at once. 64 by default.
    public var maximumConnections: Int
    /// How many messages wait for a player that is behind; past it, the player is disconnected (it never slows the
    /// publisher or the other players). 4096 by default.
    public var playerQueueCapacity: Int
    /// The send-buffer bound of each connection. 1 MiB by default.
    public var sendBufferCapacity: Int

    /// A configuration.
    /// - Parameters:
    ///   - address: where to listen.
    ///   - limits: the caps on each peer.
    ///   - chunkSize: the outgoing chunk size.
    ///   - maximumConnections: connections at once.
    ///   - playerQueueCapacity: messages queued for a player.
    ///   - sendBufferCapacity: each connection's send-buffer bound.
    ///   - authorize: decides each publish and play; all are allowed by default.
    public init(address: SocketAddress, limits: RTMPLimits = RTMPLimits(), chunkSize: Int = 4096, maximumConnections: Int = 64,
                playerQueueCapacity: Int = 4096, sendBufferCapacity: Int = 1 << 20,
                authorize: @escaping @Sendable (RTMPStreamRequest) -> Bool = { _ in true }) {
        self.address = address
        self.limits = limits
        self.chunkSize = chunkSize
        self.maximumConnections = maximumConnections
        self.playerQueueCapacity = playerQueueCapacity
        self.sendBufferCapacity = sendBufferCapacity
        self.authorize = authorize
    }

    /// A configuration that allows only the given paths (`app/streamKey`), for publishing and playing.
    /// - Parameters:
    ///   - address: where to listen.
    ///   - paths: the allowed `app/streamKey` paths, for example `["live/secret"]`.
    /// - Returns: the configuration.
    public static func allowing(_ paths: Set<String>, address: SocketAddress) -> RTMPServerConfiguration {
        RTMPServerConfiguration(address: address) { paths.contains($0.path) }
    }
}

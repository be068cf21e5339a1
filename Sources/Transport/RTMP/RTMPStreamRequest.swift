import POSIX

/// A peer's request to publish or play a stream on an ``RTMPServer``: what the server's authorization sees.
public struct RTMPStreamRequest: Sendable, Hashable {
    /// Publishing or playing.
    public enum Role: String, Sendable, Hashable {
        /// `publish` (§7.2.2.6).
        case publish
        /// `play` (§7.2.2.1).
        case play
    }

    /// Publish or play.
    public var role: Role
    /// The application from `connect` (for example `live`).
    public var app: String
    /// The stream name without its query (the stream key).
    public var streamName: String
    /// The query after `?` in the stream name, if any (some publishers put tokens there).
    public var query: String
    /// The peer.
    public var remoteAddress: SocketAddress

    /// The stream's path on the server: `app/streamName`.
    public var path: String { "\(app)/\(streamName)" }

    /// A request.
    /// - Parameters:
    ///   - role: publish or play.
    ///   - app: the application.
    ///   - streamName: the stream name, without the query.
    ///   - query: the query, or empty.
    ///   - remoteAddress: the peer.
    public init(role: Role, app: String, streamName: String, query: String = "", remoteAddress: SocketAddress) {
        self.role = role
        self.app = app
        self.streamName = streamName
        self.query = query
        self.remoteAddress = remoteAddress
    }
}

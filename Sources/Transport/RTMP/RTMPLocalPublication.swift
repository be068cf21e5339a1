/// A stream of our own on an ``RTMPServer`` (from ``RTMPServer/publishLocally(at:)``): what it sends goes to every
/// player of its path, as a remote publisher's messages would.
public final class RTMPLocalPublication: Sendable {
    private let stream: RTMPServerStream

    init(stream: RTMPServerStream) {
        self.stream = stream
    }

    func claim() -> Bool {
        stream.claim(by: ObjectIdentifier(self))
    }

    /// The path, `app/streamKey`.
    public var path: String { stream.path }

    /// Hands a message to every player: an audio or video message (an FLV tag body), or an `onMetaData` data
    /// message. Never waits; a player that falls too far behind is dropped.
    /// - Parameter message: the message (its stream id is replaced by each player's).
    public func send(_ message: RTMPMessage) {
        _ = stream.deliver(message)
    }

    /// Releases the path (players stay connected and get what the next publisher sends).
    public func finish() {
        stream.release(by: ObjectIdentifier(self))
    }
}

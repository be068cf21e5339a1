import POSIX
import Synchronization

/// One player of a server stream: a bounded queue of messages and the task that sends them, so that a slow player
/// never slows the publisher or the other players. When the queue is full the player is dropped.
final class RTMPPlayerSink: Sendable {
    let streamID: UInt32
    let connection: RTMPConnection
    let remoteAddress: SocketAddress
    private let queue: AsyncStream<RTMPMessage>.Continuation
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let waitingForKeyFrame = Mutex(true)

    /// A sink sending to `connection`'s message stream `streamID`.
    init(connection: RTMPConnection, remoteAddress: SocketAddress, streamID: UInt32, capacity: Int) {
        self.connection = connection
        self.remoteAddress = remoteAddress
        self.streamID = streamID
        let (stream, queue) = AsyncStream.makeStream(of: RTMPMessage.self, bufferingPolicy: .bufferingOldest(max(1, capacity)))
        self.queue = queue
        let sender = Task {
            for await message in stream {
                do throws(RTMPError) { try await connection.send(message) } catch { break }
            }
        }
        task.withLock { $0 = sender }
    }

    /// Queues a message of the stream for the player (with the player's stream id); video waits for a key frame
    /// (sequence headers pass).
    /// - Returns: `false` when the queue is full (the player is too slow).
    func offer(_ message: RTMPMessage, isSequenceHeader: Bool) -> Bool {
        if message.type == .video, !isSequenceHeader {
            let skip = waitingForKeyFrame.withLock { waiting -> Bool in
                if waiting, RTMPMediaKind.isKeyFrame(video: message.payload) { waiting = false }
                return waiting
            }
            if skip { return true }
        }
        var message = message
        message.streamID = streamID
        message.chunkStreamID = 0
        if case .dropped = queue.yield(message) { return false }
        return true
    }

    /// Ends the queue; what is queued is still sent.
    func finish() {
        queue.finish()
    }
}

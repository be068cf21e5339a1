import Bitstream
import Synchronization

/// A path of an ``RTMPServer`` (`app/streamKey`): its publisher, the messages a late player needs first
/// (`onMetaData`, the video and audio sequence headers), and its players and local subscribers.
final class RTMPServerStream: Sendable {
    private struct Subscriber {
        var sink: AsyncStream<RTMPMessage>.Continuation
        var waitingForKeyFrame = true
    }

    private struct State {
        var publisher: ObjectIdentifier?
        var metadata: RTMPMessage?
        var videoHeader: RTMPMessage?
        var audioHeader: RTMPMessage?
        var players: [ObjectIdentifier: RTMPPlayerSink] = [:]
        var subscribers: [UInt64: Subscriber] = [:]
        var nextSubscriber: UInt64 = 0
    }

    let path: String
    private let state = Mutex(State())

    init(path: String) {
        self.path = path
    }

    /// Claims the stream for a publisher.
    /// - Returns: `false` when another publisher has it.
    func claim(by publisher: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard state.publisher == nil || state.publisher == publisher else { return false }
            state.publisher = publisher
            state.metadata = nil
            state.videoHeader = nil
            state.audioHeader = nil
            return true
        }
    }

    /// Releases the stream; local subscribers' streams end.
    func release(by publisher: ObjectIdentifier) {
        let subscribers = state.withLock { state -> [Subscriber] in
            guard state.publisher == publisher else { return [] }
            state.publisher = nil
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.sink.finish() }
    }

    /// Whether someone publishes it now.
    var isPublished: Bool { state.withLock { $0.publisher != nil } }

    /// Hands a publisher's message to every player and subscriber, keeping the headers late players need.
    /// - Returns: the players that were too slow (already removed).
    func deliver(_ message: RTMPMessage) -> [RTMPPlayerSink] {
        let header: Bool
        switch message.type {
        case .video: header = RTMPMediaKind.isSequenceHeader(video: message.payload)
        case .audio: header = RTMPMediaKind.isSequenceHeader(audio: message.payload)
        default: header = true
        }
        let (players, slow) = state.withLock { state -> ([RTMPPlayerSink], [RTMPPlayerSink]) in
            if message.type == .video, header { state.videoHeader = message }
            if message.type == .audio, header { state.audioHeader = message }
            if message.type == .dataAMF0 { state.metadata = message }
            for (key, subscriber) in state.subscribers {
                if message.type == .video, !header, subscriber.waitingForKeyFrame {
                    guard RTMPMediaKind.isKeyFrame(video: message.payload) else { continue }
                    state.subscribers[key]?.waitingForKeyFrame = false
                }
                subscriber.sink.yield(message)
            }
            return (Array(state.players.values), [])
        }
        var tooSlow = slow
        for player in players where !player.offer(message, isSequenceHeader: header) {
            tooSlow.append(player)
        }
        if !tooSlow.isEmpty {
            state.withLock { state in for player in tooSlow { state.players.removeValue(forKey: ObjectIdentifier(player)) } }
            for player in tooSlow {
                player.finish()
                player.connection.close()
            }
        }
        return tooSlow
    }

    /// Adds a player; it first gets the metadata and the sequence headers, then video from the next key frame.
    func add(_ player: RTMPPlayerSink) {
        let headers = state.withLock { state -> [RTMPMessage] in
            state.players[ObjectIdentifier(player)] = player
            return [state.metadata, state.videoHeader, state.audioHeader].compactMap { $0 }
        }
        for header in headers { _ = player.offer(header, isSequenceHeader: true) }
    }

    /// Removes a player.
    func remove(_ player: RTMPPlayerSink) {
        _ = state.withLock { $0.players.removeValue(forKey: ObjectIdentifier(player)) }
        player.finish()
    }

    /// A local subscriber: the headers so far, then every message from the next key frame, until the publisher leaves.
    func subscribe(capacity: Int) -> AsyncStream<RTMPMessage> {
        let (stream, sink) = AsyncStream.makeStream(of: RTMPMessage.self, bufferingPolicy: .bufferingOldest(max(1, capacity)))
        let key = state.withLock { state -> UInt64 in
            for header in [state.metadata, state.videoHeader, state.audioHeader].compactMap({ $0 }) { sink.yield(header) }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = Subscriber(sink: sink)
            return state.nextSubscriber
        }
        sink.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Ends every player and subscriber (the server stops).
    func close() {
        let (players, subscribers) = state.withLock { state -> ([RTMPPlayerSink], [Subscriber]) in
            defer {
                state.players = [:]
                state.subscribers = [:]
            }
            return (Array(state.players.values), Array(state.subscribers.values))
        }
        for player in players { player.finish() }
        for subscriber in subscribers { subscriber.sink.finish() }
    }
}

import MediaCore
import Synchronization
import Transport

/// One destination of a ``LivePipeline`` behind its own bounded queue: the fan-out offers every frame without
/// waiting, the queue drops what nothing depends on when the destination falls behind (each drop reported), and a
/// writer task of its own opens the destination and sends to it. A destination that fails is reported once and
/// gets nothing more; the others are not touched.
///
/// Until the stream's formats are known (the first encoded picture carries the parameter sets), audio frames wait
/// here, at most ``maximumHeldAudioFrames``; then they go out first, in order.
final class DestinationChannel: Sendable {
    /// The most audio frames held while the first picture is awaited (about 20 s at 48 kHz).
    static let maximumHeldAudioFrames = 1024

    /// The destination.
    let destination: any LiveDestination
    /// The video rendition it takes: 0 the main one, others dedicated.
    let rendition: Int
    /// The tracks it takes: frames of the others are neither queued nor counted.
    let tracks: LiveTracks

    private struct State {
        var stream: LiveStreamDescription?
        var heldAudio: [OutgoingMedia] = []
        var nextVideoIndex = 0
        var nextAudioIndex = 0
        var isOpen = false
        var hasFailed = false
        var statistics: DestinationStatistics
    }

    /// The state, in a box the writer's closure shares with the channel.
    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    private let shared: Shared
    private let sender: AdaptiveMediaSender
    private let emit: @Sendable (LiveEvent) -> Void

    /// Creates the channel and starts its writer.
    /// - Parameters:
    ///   - destination: the destination.
    ///   - rendition: the rendition it takes.
    ///   - limits: its queue's bounds (their policy is set by `delivery`).
    ///   - delivery: drop when behind (the drop policy), or wait (the wait policy: the fan-out waits in ``waitForRoom()``).
    ///   - emit: where its events go.
    init(destination: any LiveDestination, rendition: Int, limits: SendQueueLimits, delivery: Delivery = .dropWhenBehind,
         emit: @escaping @Sendable (LiveEvent) -> Void) {
        self.destination = destination
        self.rendition = rendition
        tracks = destination.tracks
        self.emit = emit
        let shared = Shared(State(statistics: DestinationStatistics(name: destination.name, isLive: destination.isLive)))
        self.shared = shared
        var bounded = limits
        bounded.policy = delivery == .dropWhenBehind ? .drop : .wait
        sender = AdaptiveMediaSender(limits: bounded, adaptation: nil, reconnectPolicy: .never, send: { media in
            let stream: LiveStreamDescription? = shared.state.withLock { $0.isOpen ? nil : $0.stream }
            do {
                if let stream {
                    try await destination.open(stream)
                    shared.state.withLock { $0.isOpen = true }
                    emit(.destinationOpened(destination.name))
                }
                try await destination.send(media)
            } catch {
                let first = shared.state.withLock { state -> Bool in
                    defer { state.hasFailed = true }
                    if state.statistics.failure == nil { state.statistics.failure = "\(error)" }
                    return !state.hasFailed
                }
                if first { emit(.destinationFailed(destination.name, error: error)) }
                throw error
            }
            shared.state.withLock { state in
                if media.isVideo { state.statistics.videoFramesSent += 1 } else { state.statistics.audioFramesSent += 1 }
                state.statistics.bytesSent += media.byteCount
            }
        }, reconnect: { _ in })
    }

    /// The channel's queue events (drops), for the pipeline to report and count.
    var queueEvents: AsyncStream<SendQueueEvent> { sender.events }

    /// Whether the destination has failed.
    var hasFailed: Bool { shared.state.withLock { $0.hasFailed } }

    /// Its numbers now.
    var statistics: DestinationStatistics {
        var statistics = shared.state.withLock { $0.statistics }
        statistics.queuedSeconds = sender.queuedSeconds
        return statistics
    }

    /// Refuses the destination before anything is sent: it is reported as failed and gets nothing.
    /// - Parameter error: why.
    func refuse(because error: LiveError) {
        shared.state.withLock { state in
            state.hasFailed = true
            state.statistics.failure = "\(error)"
        }
        emit(.destinationFailed(destination.name, error: error))
    }

    /// Waits until the queue is within its bounds again (``Delivery/waitForSlowest``); at once when dropping.
    func waitForRoom() async {
        await sender.waitForRoom()
    }

    /// Counts a drop its queue or the destination itself reported.
    func countDrop() {
        shared.state.withLock { $0.statistics.framesDropped += 1 }
    }

    /// Counts a restored connection the destination reported.
    func countReconnection() {
        shared.state.withLock { $0.statistics.reconnections += 1 }
    }

    /// Sets the stream's formats for a stream without video (audio only): nothing waits for a picture.
    /// - Parameter stream: the formats.
    func start(with stream: LiveStreamDescription) {
        shared.state.withLock { $0.stream = $0.stream ?? stream }
    }

    /// Offers a picture of its rendition. The first key frame fixes the stream's formats and lets the held audio out;
    /// a destination that does not take video gets no picture.
    /// - Parameters:
    ///   - frame: the picture, in decode order.
    ///   - stream: the formats as of this picture.
    func offer(video frame: EncodedFrame, stream: LiveStreamDescription) {
        shared.state.withLock { state in
            guard !state.hasFailed else { return }
            if state.stream == nil {
                guard frame.isKeyFrame else { return }  // a stream starts at a key frame
                state.stream = stream
                for media in state.heldAudio { try? sender.offer(media) }
                state.heldAudio = []
            }
            guard tracks.contains(.video) else { return }
            try? sender.offer(.video(frame, index: state.nextVideoIndex))
            state.nextVideoIndex += 1
        }
    }

    /// Offers an audio frame; held until the formats are known. A destination that does not take audio gets none.
    /// - Parameter frame: the AAC frame.
    func offer(audio frame: EncodedAudioFrame) {
        guard tracks.contains(.audio) else { return }
        let overflow: MediaPosition? = shared.state.withLock { state in
            guard !state.hasFailed else { return nil }
            let media = OutgoingMedia.audio(frame, index: state.nextAudioIndex)
            state.nextAudioIndex += 1
            guard state.stream == nil else {
                try? sender.offer(media)
                return nil
            }
            state.heldAudio.append(media)
            guard state.heldAudio.count > Self.maximumHeldAudioFrames else { return nil }
            state.statistics.framesDropped += 1
            return state.heldAudio.removeFirst().position
        }
        if let overflow { emit(.dropped(destination.name, overflow, reason: .audioOverflow)) }
    }

    /// Opens a destination the stream started for but none of whose tracks it carries (an `.h264` file of a stream
    /// without video): nothing was queued to open it with, so it is opened now and refuses the stream
    /// (``LiveDestinationError/missingTrack(_:destination:)``) as it would have at a first frame.
    private func openIfNoTrackCame() async {
        let stream = shared.state.withLock { state -> LiveStreamDescription? in
            guard !state.isOpen, !state.hasFailed, let stream = state.stream else { return nil }
            let carried = (stream.video != nil && tracks.contains(.video)) || (stream.audio != nil && tracks.contains(.audio))
            return carried ? nil : stream
        }
        guard let stream else { return }
        do {
            try await destination.open(stream)
            shared.state.withLock { $0.isOpen = true }
            emit(.destinationOpened(destination.name))
        } catch {
            shared.state.withLock { state in
                state.hasFailed = true
                if state.statistics.failure == nil { state.statistics.failure = "\(error)" }
            }
            emit(.destinationFailed(destination.name, error: error))
        }
    }

    /// Sends what is queued, closes the destination, and reports.
    /// - Returns: the destination's numbers.
    func finish() async -> DestinationStatistics {
        do {
            try await sender.close()
        } catch {
            // The send closure has recorded and reported the failure.
        }
        await openIfNoTrackCame()
        let (wasOpen, failed) = shared.state.withLock { ($0.isOpen, $0.hasFailed) }
        if wasOpen || failed {
            do {
                try await destination.finish()
            } catch {
                let first = shared.state.withLock { state -> Bool in
                    defer { if state.statistics.failure == nil { state.statistics.failure = "\(error)" } }
                    return state.statistics.failure == nil
                }
                if first { emit(.destinationFailed(destination.name, error: error)) }
            }
        } else {
            shared.state.withLock { state in
                if state.statistics.failure == nil, state.stream == nil { state.statistics.failure = "the stream never started: no key frame came" }
            }
        }
        return statistics
    }
}

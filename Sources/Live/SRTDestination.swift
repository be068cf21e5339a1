import Containers
import Foundation
import MediaCore
import Synchronization
import Transport

/// The stream as MPEG-TS over SRT (`srt://`): as a caller to a listener (an SRT server, `ffmpeg -i
/// srt://:PORT?mode=listener`, srt-live-transmit), or as a listener that any number of pullers call — what
/// `ffmpeg -f mpegts srt://:PORT?mode=listener` does for one, and `serve --srt-port` for many.
///
/// The URL follows FFmpeg's `srt://` options (``SRTURL``): `mode`, `latency` (µs), `passphrase`, `pbkeylen`,
/// `streamid`, `connect_timeout`, `pkt_size`. Each SRT packet carries seven TS packets (``TSChunkStream``). Sending
/// never blocks the pipeline: a packet that finds the send buffer full is dropped (SRT itself drops what is too late
/// to play), and counted. A listener admits callers whose stream id asks to receive (`m=request`, or no mode) and
/// refuses publishers (`m=publish`: 1405, mode not supported); a puller starts at the next key frame; one that goes
/// away is forgotten without disturbing the others. Closing waits for the callers' acknowledgements and latency
/// (``SRTSocket/close()``), so the last frames arrive.
///
/// The link's counters (``statistics``) feed the pipeline's adaptation: media waiting in a send buffer longer than a
/// round trip, and packets dropped as too late, step the bit rate down (``SRTLinkAdaptation``); a drained link steps it
/// back up. A listener asks for a key frame when a puller joins, so it does not wait a whole GOP for its first picture.
///
/// ```swift
/// pipeline.add(try SRTDestination(url: "srt://127.0.0.1:9000?streamid=live/cam&latency=200000"))
/// ```
public final class SRTDestination: LiveDestination {
    /// How the destination adapts to its link.
    public struct Options: Sendable {
        /// Whether the link's counters suggest bit rates at all.
        public var adapts: Bool
        /// The lowest bit rate the link's counters may suggest (bits per second); `nil`: an eighth of the stream's.
        public var minimumBitRate: Int?
        /// How often the counters are read.
        public var statisticsInterval: Duration

        /// Creates options.
        /// - Parameters:
        ///   - adapts: whether to suggest bit rates (default `true`).
        ///   - minimumBitRate: the lowest suggested bit rate.
        ///   - statisticsInterval: how often to read the counters (default 250 ms).
        public init(adapts: Bool = true, minimumBitRate: Int? = nil, statisticsInterval: Duration = .milliseconds(250)) {
            self.adapts = adapts
            self.minimumBitRate = minimumBitRate
            self.statisticsInterval = statisticsInterval
        }
    }

    /// The URL, without its passphrase.
    public var name: String { url.description }
    /// A live link.
    public var isLive: Bool { true }
    /// The URL it sends to or listens on.
    public let url: SRTURL
    /// How it adapts.
    public let options: Options
    /// Bit-rate suggestions from the link's counters, and key-frame requests when a puller joins.
    public let events: AsyncStream<SendQueueEvent>?

    private let eventContinuation: AsyncStream<SendQueueEvent>.Continuation

    private struct Peer {
        let socket: SRTSocket
        var isStarted: Bool
        var liveness: SRTPeerLiveness
        /// Whether the peer stopped acknowledging (``SRTPeerLiveness``): its backlog and refusals do not adapt the rate.
        var isSilent = false
    }

    private struct State {
        var chunks: TSChunkStream?
        var peers: [Peer] = []
        var droppedPackets = 0
        /// The packets refused by a full send buffer of a peer that still answers.
        var refusedByAnsweringPeers = 0
        var isFinished = false
    }

    private let state = Mutex(State())
    private let listener = Mutex<SRTListener?>(nil)

    /// A destination for an `srt://` URL.
    /// - Parameters:
    ///   - url: `srt://HOST:PORT?…` (caller), or `srt://:PORT` / `mode=listener` (listener).
    ///   - options: how it adapts to its link.
    /// - Throws: ``LiveDestinationError/invalidAddress(part:destination:reason:)`` when the URL cannot be read.
    public init(url: String, options: Options = Options()) throws(LiveDestinationError) {
        do { self.url = try SRTURL(url) } catch {
            throw .invalidAddress(part: url, destination: url, reason: error.description)
        }
        self.options = options
        let (stream, continuation) = AsyncStream.makeStream(of: SendQueueEvent.self, bufferingPolicy: .bufferingNewest(256))
        events = stream
        eventContinuation = continuation
    }

    /// What SRT counted so far for each connected peer (caller: one), and the packets this side dropped because a
    /// peer's send buffer was full.
    public var statistics: (peers: [SRTStatistics], droppedPackets: Int) {
        state.withLock { state in (state.peers.compactMap { $0.socket.statistics() }, state.droppedPackets) }
    }

    /// Connects (caller, rendezvous) or starts listening (listener), and prepares the TS muxer for the formats.
    /// - Parameter stream: the formats.
    /// - Throws: ``LiveDestinationError/refused(destination:reason:)`` with SRT's reason (refused, no answer, wrong
    ///   passphrase), or the muxer's error for a format TS cannot carry.
    public func open(_ stream: LiveStreamDescription) async throws {
        try state.withLock { state throws(ContainerWriteError) in state.chunks = try TSChunkStream(stream) }
        let url = self.url
        do {
            if url.options.mode == .listener {
                let listener = try SRTListener(url: url) { request in
                    let mode = request.streamID.flatMap { try? SRTStreamID(parsing: $0) }?.mode
                    return mode == .publish ? .reject(.badMode) : .accept
                }
                self.listener.withLock { $0 = listener }
                let thread = Thread { [weak self] in self?.acceptCallers(listener) }
                thread.start()
            } else {
                let socket = try await Self.onThread { try SRTSocket.connect(to: url) }
                socket.setSendWaits(false)
                let peer = Peer(socket: socket, isStarted: true, liveness: SRTPeerLiveness())
                state.withLock { $0.peers = [peer] }
            }
        } catch let error as SRTError {
            throw LiveDestinationError.refused(destination: name, reason: error.description)
        }
        if options.adapts, let rate = stream.videoBitRate {
            let adaptation = SRTLinkAdaptation(initialBitRate: rate, minimumBitRate: options.minimumBitRate ?? max(1, rate / 8),
                                               latency: url.options.latency)
            let thread = Thread { [weak self] in self?.watchLink(adaptation) }
            thread.start()
        }
    }

    /// Muxes a frame and sends the complete TS chunks to every peer.
    /// - Parameter media: a picture or an AAC frame.
    /// - Throws: for a caller whose connection is lost, ``LiveDestinationError/refused(destination:reason:)``; the
    ///   muxer's errors.
    public func send(_ media: OutgoingMedia) async throws {
        let lost: SRTError? = try state.withLock { state throws -> SRTError? in
            guard var chunks = state.chunks else { throw LiveDestinationError.notOpen(destination: url.description) }
            let ready = try chunks.push(media)
            state.chunks = chunks
            return Self.deliver(ready, in: &state, isCaller: url.options.mode != .listener)
        }
        if let lost { throw LiveDestinationError.refused(destination: name, reason: lost.description) }
    }

    /// Sends what is left, waits for the peers to acknowledge it and play it, and closes.
    /// - Throws: the muxer's errors.
    public func finish() async throws {
        defer { eventContinuation.finish() }
        listener.withLock { $0?.close() }
        let peers = try state.withLock { state throws -> [SRTSocket] in
            guard !state.isFinished else { return [] }
            state.isFinished = true
            if var chunks = state.chunks {
                _ = Self.deliver(try chunks.finish(), in: &state, isCaller: url.options.mode != .listener)
                state.chunks = chunks
            }
            return state.peers.map(\.socket)
        }
        for peer in peers { peer.setSendWaits(true) }
        try await Self.onThread { for peer in peers { peer.close() } }
    }

    /// Sends chunks to the peers that have started (a new puller starts at a chunk that begins a key frame); drops
    /// a packet a full buffer refuses; forgets a puller that has gone. Returns the error of a caller's lost link.
    private static func deliver(_ chunks: [TSChunkStream.Chunk], in state: inout State, isCaller: Bool) -> SRTError? {
        var lost: SRTError?
        for chunk in chunks {
            for index in state.peers.indices.reversed() {
                if !state.peers[index].isStarted {
                    guard chunk.startsKeyFrame else { continue }
                    state.peers[index].isStarted = true
                }
                do {
                    try state.peers[index].socket.send(chunk.bytes)
                } catch .sendBufferFull {
                    state.droppedPackets += 1
                    if !state.peers[index].isSilent { state.refusedByAnsweringPeers += 1 }
                } catch {
                    if isCaller {
                        lost = error
                    } else {
                        state.peers[index].socket.closeNow()
                        state.peers.remove(at: index)
                    }
                }
            }
        }
        return lost
    }

    /// The listener's thread: admits callers until the listener closes.
    private func acceptCallers(_ listener: SRTListener) {
        while let socket = try? listener.accept() {
            socket.setSendWaits(false)
            let kept = state.withLock { state -> Bool in
                guard !state.isFinished else { return false }
                state.peers.append(Peer(socket: socket, isStarted: false, liveness: SRTPeerLiveness()))
                return true
            }
            if kept {
                eventContinuation.yield(.keyFrameNeeded)
            } else {
                socket.closeNow()
            }
        }
    }

    /// The adaptation's thread: reads the connections' counters every ``Options/statisticsInterval`` until the
    /// destination finishes, and reports each bit rate the link calls for. A listener's pullers that stopped answering
    /// are left out (a caller's one peer never is); a listener whose pullers have all gone returns to the stream's rate.
    private func watchLink(_ adaptation: SRTLinkAdaptation) {
        var adaptation = adaptation
        let isCaller = url.options.mode != .listener
        let clock = ContinuousClock()
        let start = clock.now
        let interval = options.statisticsInterval.components
        let pause = timespec(tv_sec: Int(interval.seconds), tv_nsec: Int(interval.attoseconds / 1_000_000_000))
        while true {
            var rest = pause
            nanosleep(&rest, nil)
            let now = (clock.now - start).seconds
            guard let (connections, refused, hasPeers) = state.withLock({ state -> ([SRTStatistics], Int, Bool)? in
                guard !state.isFinished else { return nil }
                var answering: [SRTStatistics] = []
                for index in state.peers.indices where state.peers[index].isStarted {
                    guard let statistics = state.peers[index].socket.statistics() else { continue }
                    // The one peer a caller dialled is the link itself: its silence is congestion, or a loss that
                    // ends the connection anyway; only a listener's pullers are weighed against each other.
                    let answers = isCaller || state.peers[index].liveness.observe(statistics, at: now)
                    state.peers[index].isSilent = !answers
                    if answers { answering.append(statistics) }
                }
                return (answering, state.refusedByAnsweringPeers, state.peers.contains(where: \.isStarted))
            }) else { return }
            let before = adaptation.controller.bitRate
            let suggestion = hasPeers ? adaptation.observe(connections, refusedPackets: refused, at: now) : adaptation.restore()
            if let rate = suggestion {
                let backlog = connections.map(SRTLinkAdaptation.backlog).max() ?? 0
                eventContinuation.yield(.bitRateChanged(from: before, to: rate, queuedSeconds: backlog))
            }
        }
    }

    /// Runs blocking libsrt work on a thread of its own, not on Swift's cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result(catching: work)) }
            thread.start()
        }
    }
}

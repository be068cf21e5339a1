import Bitstream
import MediaCore
import RTP
import Synchronization
import Transport

/// What ``RTSPSource`` and ``RTPSource`` share: packets of an RTP session (from an RTSP server or from UDP ports)
/// through one ``RTPSessionReceiver`` — each datagram parsed once — into ``EncodedMedia`` with presentation times on
/// the sender reports' common clock, receiver reports sent back about once a second (RFC 3550 §6.2, §6.4.2), and
/// the statistics kept as a value.
///
/// `open()` and `next()` run on one task (the ``EncodedMediaSource`` contract); only the packet iterator lives
/// outside the lock, and only that task touches it.
final class ReceivedRTPSession: @unchecked Sendable {
    /// Where the packets come from and how to answer.
    struct Link: Sendable {
        /// Every RTP and RTCP packet, tagged with its track (the SDP media section's index).
        var packets: AsyncStream<RTSPMediaPacket>
        /// Sends an RTCP compound packet on a track, where the sender's RTCP address is known.
        var sendControl: (@Sendable (_ bytes: [UInt8], _ track: Int) async -> Void)?
        /// The SDP media section of each of the link's track numbers, when they differ (an RTSP client numbers the
        /// tracks in the order it set them up); `nil`: the same.
        var sections: [Int]? = nil
    }

    private struct State {
        var receiver: RTPSessionReceiver
        var framing: ReceivedVideoFraming?
        var audioFormat: AudioFormatDescription?
        var queue: [EncodedMedia] = []
        var queueHead = 0
        var statistics = ReceivedStreamStatistics()
        var lastReport: Duration = .zero
        var ended = false

        mutating func dequeue() -> EncodedMedia? {
            guard queueHead < queue.count else { return nil }
            let item = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            return item
        }

        mutating func handle(_ event: RTPSessionEvent) {
            switch event {
            case let .video(unit, pts):
                if let frame = framing?.frame(of: unit, pts: pts) {
                    queue.append(.video(frame))
                    statistics.videoFramesGood += 1
                } else {
                    statistics.videoFramesLost += 1
                }
            case let .audio(frame, pts):
                guard let format = audioFormat else { return }
                let duration = MediaTime(value: Int64(format.samplesPerFrame), timescale: Int32(clamping: max(format.sampleRate, 1)))
                queue.append(.audio(EncodedAudioFrame(data: Array(frame.data), pts: pts, duration: duration, format: format)))
                statistics.audioFramesGood += 1
            case let .videoLost(loss):
                statistics.videoFramesLost += 1
                report(ReceivedFrameLoss(track: .video, fate: .lost, loss: loss))
            case let .videoWithheld(loss):
                statistics.videoFramesWithheld += 1
                report(ReceivedFrameLoss(track: .video, fate: .withheld, loss: loss))
            case let .audioLost(loss):
                statistics.audioFramesLost += 1
                report(ReceivedFrameLoss(track: .audio, fate: .lost, loss: loss))
            }
        }

        private mutating func report(_ loss: ReceivedFrameLoss) {
            if statistics.losses.count < ReceivedStreamStatistics.maximumLossReports { statistics.losses.append(loss) }
        }
    }

    /// The most frames read ahead while waiting for in-band parameter sets in ``open()``.
    private static let maximumReadAhead = 4096

    let name: String
    let frameRate: Double
    private let link: Link
    private let state: Mutex<State>
    private let started = ContinuousClock.now
    private let ownSSRC = UInt32.random(in: 1...UInt32.max)
    /// Touched by the one task that calls ``open()`` and ``next()`` only.
    private var iterator: AsyncStream<RTSPMediaPacket>.Iterator

    /// A session.
    /// - Parameters:
    ///   - name: the source's name.
    ///   - receiver: the receiver for the tracks taken.
    ///   - link: the packets and the way back.
    init(name: String, receiver: RTPSessionReceiver, link: Link) {
        self.name = name
        self.link = link
        iterator = link.packets.makeAsyncIterator()
        var initial = State(receiver: receiver)
        var rate = 30.0
        if let video = receiver.video, case let .video(codec, format) = video.media {
            rate = video.frameRate.flatMap { $0 > 0 && $0 < 1000 ? $0 : nil } ?? 30
            initial.framing = ReceivedVideoFraming(codec: codec, format: format, frameRate: rate)
        }
        if let audio = receiver.audio, case let .audio(format, _) = audio.media { initial.audioFormat = format }
        frameRate = rate
        state = Mutex(initial)
    }

    /// What the session saw so far.
    var statistics: ReceivedStreamStatistics {
        state.withLock { state in
            var result = state.statistics
            result.rtp = state.receiver.statistics
            return result
        }
    }

    /// The stream's formats; waits for in-band parameter sets when the SDP had none.
    /// - Returns: the description.
    /// - Throws: ``LiveSourceError`` when the stream ends (or runs on too long) before any parameter sets.
    func open() async throws(LiveSourceError) -> LiveStreamDescription {
        while true {
            let (video, audio, hasVideo, buffered, ended) = state.withLock { state in
                (state.framing?.format, state.audioFormat, state.framing != nil, state.queue.count - state.queueHead, state.ended)
            }
            if !hasVideo || video != nil {
                return LiveStreamDescription(video: video, audio: audio, frameRate: frameRate)
            }
            guard !ended, buffered < Self.maximumReadAhead else {
                throw LiveSourceError(source: name, kind: .unsupported,
                                      reason: "no H.264/H.265 parameter sets in the SDP or in the first \(buffered) frames")
            }
            await pump()
        }
    }

    /// The next frame, in arrival order (pictures in decode order).
    /// - Returns: the frame, or `nil` once the packets have ended and everything held was handed on.
    func next() async -> EncodedMedia? {
        while true {
            let (item, ended) = state.withLock { state in (state.dequeue(), state.ended) }
            if let item { return item }
            if ended { return nil }
            await pump()
        }
    }

    /// Takes the next packet (or the end of the packets) into the receiver.
    private func pump() async {
        guard var packet = await iterator.next() else {
            state.withLock { state in
                var events: [RTPSessionEvent] = []
                state.receiver.finish { events.append($0) }
                for event in events { state.handle(event) }
                state.ended = true
            }
            return
        }
        let arrival = ContinuousClock.now - started
        let ownSSRC = self.ownSSRC
        let sections = link.sections
        if let sections {
            guard sections.indices.contains(packet.track) else { return }
            packet.track = sections[packet.track]
        }
        let reports = state.withLock { state -> [(track: Int, bytes: [UInt8])] in
            var events: [RTPSessionEvent] = []
            if packet.isControl {
                state.receiver.receiveControl(packet.bytes, track: packet.track, arrival: arrival) { events.append($0) }
            } else {
                state.receiver.receive(packet.bytes, track: packet.track, arrival: arrival) { events.append($0) }
            }
            for event in events { state.handle(event) }
            // RFC 3550 §6.2: a receiver report about once a second.
            guard arrival - state.lastReport >= .seconds(1) else { return [] }
            state.lastReport = arrival
            return state.receiver.receiverReports(at: arrival, ssrc: ownSSRC, canonicalName: "streamkit-receive")
        }
        if let send = link.sendControl {
            for report in reports {
                let track = sections.map { $0.firstIndex(of: report.track) ?? -1 } ?? report.track
                if track >= 0 { await send(report.bytes, track) }
            }
        }
    }
}

extension ReceivedRTPSession {
    /// What ``RTSPSource`` and ``RTPSource`` keep from their making to their end, whatever carries their packets:
    /// the tracks taken, the receiver's limits, the event loop made in `open()` (shut down when the source goes)
    /// and the session once open.
    final class Holder: Sendable {
        private struct Parts {
            var loop: EventLoop?
            var session: ReceivedRTPSession?
        }

        /// The tracks taken.
        let tracks: ReceivedTracks
        /// The receiver's limits.
        let configuration: RTPSessionReceiver.Configuration
        private let parts = Mutex(Parts())

        /// A holder with nothing open yet.
        /// - Parameters:
        ///   - tracks: the tracks to take.
        ///   - configuration: the receiver's windows and limits.
        init(tracks: ReceivedTracks, configuration: RTPSessionReceiver.Configuration) {
            self.tracks = tracks
            self.configuration = configuration
        }

        deinit {
            parts.withLock { $0.loop?.shutdown() }
        }

        /// The event loop the source's sockets run on, once made.
        var loop: EventLoop? {
            get { parts.withLock { $0.loop } }
            set { parts.withLock { $0.loop = newValue } }
        }

        /// The session, once the source is open.
        var session: ReceivedRTPSession? {
            get { parts.withLock { $0.session } }
            set { parts.withLock { $0.session = newValue } }
        }

        /// What the session saw so far (nothing before it opened).
        var statistics: ReceivedStreamStatistics {
            session?.statistics ?? ReceivedStreamStatistics()
        }

        /// The session receiver for the tracks taken of a description.
        /// - Parameters:
        ///   - description: the SDP.
        ///   - source: the source's name, for the error.
        /// - Returns: the receiver.
        /// - Throws: ``LiveSourceError`` (`.unsupported`) when no track taken can be received.
        func receiver(for description: SessionDescription, source: String) throws(LiveSourceError) -> RTPSessionReceiver {
            do throws(RTPSessionError) {
                return try tracks.receiver(for: description, configuration: configuration)
            } catch {
                throw LiveSourceError(source: source, kind: .unsupported, reason: error.description)
            }
        }

        /// The next picture or audio frame of the session.
        /// - Returns: the frame, or `nil` before the source opened and once the packets have ended.
        func next() async -> EncodedMedia? {
            guard let session else { return nil }
            return await session.next()
        }
    }
}

import MediaCore
import Synchronization
import Testing
import Transport

/// A link of a settable rate: each message takes its size over the rate to go through; it can be told to
/// fail once.
final class SlowSink: Sendable {
    let bytesPerSecond: Atomic<Int>
    let failAt = Atomic<Int>(-1)
    let sent = Mutex<[MediaPosition]>([])
    let sends = Atomic<Int>(0)

    init(bytesPerSecond: Int) { self.bytesPerSecond = Atomic(bytesPerSecond) }

    struct LinkDown: Error {}

    func send(_ media: OutgoingMedia) async throws {
        let number = sends.add(1, ordering: .relaxed).newValue
        if number == failAt.load(ordering: .relaxed) { throw LinkDown() }
        let rate = bytesPerSecond.load(ordering: .relaxed)
        try await Task.sleep(for: .seconds(Double(media.byteCount) / Double(rate)))
        sent.withLock { $0.append(media.position) }
    }
}

/// The link's rate and the pictures' pace are real time (a picture every 1/30 s against a byte budget per second): on a
/// machine shared with the rest of a parallel run the pace slips and the proof with it, so it runs alone
/// (``RealTimeSuites``).
@Suite("RTMP publisher: adapting to a slow link", .runsAlone)
struct AdaptiveSenderTests {
    @Test("A slow link lowers the bitrate and drops droppable pictures; a fast one raises it again")
    func adaptsToTheLink() async throws {
        let sink = SlowSink(bytesPerSecond: 60_000)
        let adaptation = BitRateAdaptation(initialBitRate: 800_000, minimumBitRate: 100_000, stepDownFactor: 0.7, stepUpFactor: 1.5,
                                           highWaterSeconds: 0.3, lowWaterSeconds: 0.1, stepDownInterval: 0.3, stepUpInterval: 0.4)
        let sender = AdaptiveMediaSender(limits: SendQueueLimits(maximumBytes: 1 << 20, maximumSeconds: 1, policy: .drop),
                                         adaptation: adaptation, send: { try await sink.send($0) }, reconnect: { _ in })
        // The "encoder": frame sizes follow the bitrate the sender asks for.
        let encoderBitRate = Atomic<Int>(800_000)
        let events = Task { () -> [(Double, SendQueueEvent)] in
            let start = ContinuousClock.now
            var seen: [(Double, SendQueueEvent)] = []
            for await event in sender.events {
                if case let .bitRateChanged(_, to, _) = event { encoderBitRate.store(to, ordering: .relaxed) }
                let elapsed = ContinuousClock.now - start
                seen.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, event))
            }
            return seen
        }
        let start = ContinuousClock.now
        var audioIndex = 0
        let pictures = 240
        for index in 0..<pictures {
            if index == 90 { sink.bytesPerSecond.store(2_000_000, ordering: .relaxed) }  // the cap is lifted
            try await Task.sleep(until: start.advanced(by: .seconds(Double(index) / 30)), clock: .continuous)
            let bytes = encoderBitRate.load(ordering: .relaxed) / 8 / 30
            try await sender.submit(.video(SyntheticMedia.picture(index, gop: 30, bytes: bytes), index: index))
            while Double(audioIndex) * 1024 / 48_000 <= Double(index + 1) / 30 {
                try await sender.submit(.audio(SyntheticMedia.audio(audioIndex), index: audioIndex))
                audioIndex += 1
            }
        }
        let report = try await sender.close()
        let seen = await events.value
        let changes = seen.compactMap { time, event -> (Double, Int, Int)? in
            if case let .bitRateChanged(from, to, _) = event { return (time, from, to) }
            return nil
        }
        // Down while the link is slow, then (the cap lifted) up again after the last step down.
        let firstDown = changes.firstIndex { $0.2 < $0.1 }
        #expect(firstDown != nil, "the bitrate stepped down while the link was slow: \(changes)")
        let lastDown = changes.lastIndex { $0.2 < $0.1 } ?? changes.count
        #expect(changes[min(changes.count, lastDown + 1)...].contains { $0.2 > $0.1 }, "and up again once it was fast: \(changes)")
        let lowest = changes.map(\.2).min() ?? 800_000
        #expect(lowest <= 400_000)
        #expect((report.finalBitRate ?? 0) > lowest)
        let drops = seen.compactMap { _, event -> MediaPosition? in
            if case let .dropped(position, _) = event { return position }
            return nil
        }
        #expect(drops.allSatisfy { $0.isVideo }, "audio is never dropped before video")
        let sent = sink.sent.withLock { $0 }
        let sentVideo = sent.filter(\.isVideo).map(\.index)
        #expect(sentVideo.count + drops.count == pictures, "every picture is sent or reported")
        #expect(sent.filter { !$0.isVideo }.count == audioIndex)
        #expect(SyntheticMedia.decodes(sent: sentVideo), "what was sent still decodes")
        #expect(report.videoFramesSent == sentVideo.count)
        #expect(report.videoFramesDropped == drops.count)
    }

    @Test("A lost connection is restored with backoff and sending resumes at a key frame")
    func reconnects() async throws {
        let sink = SlowSink(bytesPerSecond: 50_000_000)
        sink.failAt.store(20, ordering: .relaxed)
        let attempts = Atomic<Int>(0)
        let sender = AdaptiveMediaSender(limits: SendQueueLimits(), adaptation: nil,
                                         reconnectPolicy: ReconnectPolicy(initialDelay: 0.05, maximumDelay: 0.2),
                                         send: { try await sink.send($0) },
                                         reconnect: { attempt in
                                             attempts.add(1, ordering: .relaxed)
                                             if attempt < 3 { throw SlowSink.LinkDown() }  // the server is still down twice
                                         })
        let events = Task { () -> [SendQueueEvent] in
            var seen: [SendQueueEvent] = []
            for await event in sender.events { seen.append(event) }
            return seen
        }
        for index in 0..<60 {
            try await sender.submit(.video(SyntheticMedia.picture(index, gop: 30, bytes: 200), index: index))
            try await Task.sleep(for: .milliseconds(5))
        }
        let report = try await sender.close()
        let seen = await events.value
        #expect(attempts.load(ordering: .relaxed) == 3)
        #expect(report.reconnections == 1)
        #expect(seen.filter { if case .disconnected = $0 { true } else { false } }.count == 3)
        #expect(seen.contains(.reconnected(attempt: 3)))
        let sent = sink.sent.withLock { $0 }.map(\.index)
        // The 20th message (index 19) failed; sending resumed at the next key frame, 30.
        #expect(Array(sent.prefix(19)) == Array(0..<19))
        #expect(sent.dropFirst(19).first == 30)
        #expect(Array(sent.dropFirst(19)) == Array(30..<60))
        let drops = seen.compactMap { if case let .dropped(position, .reconnecting) = $0 { position.index } else { nil } }
        #expect(drops == Array(19..<30))
        #expect(SyntheticMedia.decodes(sent: sent))
    }

    @Test("Without a connection to go back to, close reports the loss")
    func givesUp() async throws {
        let sink = SlowSink(bytesPerSecond: 50_000_000)
        sink.failAt.store(1, ordering: .relaxed)
        let sender = AdaptiveMediaSender(limits: SendQueueLimits(), adaptation: nil,
                                         reconnectPolicy: ReconnectPolicy(initialDelay: 0.01, maximumDelay: 0.02, maximumAttempts: 2),
                                         send: { try await sink.send($0) }, reconnect: { _ in throw SlowSink.LinkDown() })
        try await sender.submit(.video(SyntheticMedia.picture(0, bytes: 100), index: 0))
        await #expect(throws: MediaSenderError.connectionLost(attempts: 2, lastError: "LinkDown()")) { try await sender.close() }
    }
}

import MediaCore
import Testing
import Transport

@Suite("RTMP publisher: the bounded send queue")
struct SendQueueTests {
    @Test("A full queue drops non-reference pictures first, then the group's tail, never audio")
    func dropOrder() {
        var queue = SendQueue(limits: SendQueueLimits(maximumBytes: 10_000, maximumSeconds: 10, policy: .drop))
        var events: [SendQueueEvent] = []
        for index in 0..<40 {
            events += queue.enqueue(.video(SyntheticMedia.picture(index, gop: 30, bytes: 1000), index: index))
            events += queue.enqueue(.audio(SyntheticMedia.audio(index), index: index))
        }
        let drops = events.compactMap { event -> (MediaPosition, SendDropReason)? in
            if case let .dropped(position, reason) = event { return (position, reason) }
            return nil
        }
        #expect(!drops.isEmpty)
        #expect(drops.allSatisfy { $0.0.isVideo }, "audio is never dropped while video could be")
        // Non-reference (B) pictures go before any referenced one.
        let firstReferenced = drops.firstIndex { $0.1 != .nonReferenceFrame }
        let firstNonReference = drops.firstIndex { $0.1 == .nonReferenceFrame }
        #expect(firstNonReference == 0)
        if let firstReferenced {
            #expect(drops[..<firstReferenced].allSatisfy { $0.0.index % 2 == 0 && $0.0.index % 30 != 0 })
        }
        #expect(events.contains(.keyFrameNeeded))
        // Audio (12 000 bytes here) is kept up to twice the bound; the pictures left fit beside it.
        #expect(queue.byteCount <= 2 * 10_000, "the bound holds")
        // What stays decodes.
        var sent: [Int] = []
        var audio = 0
        while let item = queue.dequeue() {
            switch item {
            case let .video(_, index): sent.append(index)
            case .audio: audio += 1
            }
        }
        #expect(audio == 40)
        #expect(sent.contains(30), "the next key frame ends the skipping")
        #expect(SyntheticMedia.decodes(sent: sent))
        #expect(sent.count + drops.count == 40, "every picture is sent or reported")
    }

    @Test("The wait policy never drops")
    func waitPolicy() {
        var queue = SendQueue(limits: SendQueueLimits(maximumBytes: 1000, maximumSeconds: 0.1, policy: .wait))
        #expect(queue.hasRoom(for: 5000))
        var events: [SendQueueEvent] = []
        for index in 0..<10 { events += queue.enqueue(.video(SyntheticMedia.picture(index, bytes: 500), index: index)) }
        #expect(events.isEmpty)
        #expect(!queue.hasRoom(for: 1))
        #expect(queue.count == 10)
    }

    @Test("Resuming after a lost connection starts at the first queued key frame")
    func resumeAtKeyFrame() {
        var queue = SendQueue(limits: SendQueueLimits(maximumBytes: 1 << 20, maximumSeconds: 100))
        for index in 25..<35 {
            _ = queue.enqueue(.video(SyntheticMedia.picture(index, gop: 30, bytes: 100), index: index))
            _ = queue.enqueue(.audio(SyntheticMedia.audio(index), index: index))
        }
        let events = queue.resumeAtKeyFrame()
        #expect(events.count == 5)
        #expect(events.allSatisfy { if case let .dropped(position, reason) = $0 { position.isVideo && reason == .reconnecting } else { false } })
        var firstVideo: Int?
        var audio = 0
        while let item = queue.dequeue() {
            if case let .video(_, index) = item, firstVideo == nil { firstVideo = index }
            if case .audio = item { audio += 1 }
        }
        #expect(firstVideo == 30)
        #expect(audio == 10)
    }

    @Test("The controller steps down while media piles up and back up once drained")
    func controllerSteps() {
        var controller = BitRateController(adaptation: BitRateAdaptation(initialBitRate: 1_000_000, minimumBitRate: 300_000,
                                                                         stepDownFactor: 0.5, stepDownInterval: 0.5, stepUpInterval: 1))
        #expect(controller.observe(queuedSeconds: 1, at: 0) == 500_000)
        #expect(controller.observe(queuedSeconds: 1, at: 0.2) == nil, "a step waits for the interval")
        #expect(controller.observe(queuedSeconds: 1, at: 0.6) == 300_000, "never below the floor")
        #expect(controller.observe(queuedSeconds: 1, at: 2) == nil)
        #expect(controller.observe(queuedSeconds: 0, at: 3) == nil, "drained, but not for long enough")
        #expect(controller.observe(queuedSeconds: 0, at: 4.1) == 345_000)
        #expect(controller.observe(queuedSeconds: 0.3, at: 6) == nil, "between the marks nothing changes")
        var raised = controller.bitRate
        var time = 6.0
        while raised < 1_000_000, time < 100 {
            time += 1.1
            raised = controller.observe(queuedSeconds: 0, at: time) ?? raised
        }
        #expect(raised == 1_000_000, "never above the ceiling")
    }

    @Test("Backoff doubles up to its ceiling")
    func backoff() {
        let policy = ReconnectPolicy(initialDelay: 0.25, maximumDelay: 1.5)
        #expect((1...5).map(policy.delay(beforeAttempt:)) == [0.25, 0.5, 1, 1.5, 1.5])
    }
}

@Suite("RTMP publisher: interleaving by decode time")
struct InterleaverTests {
    @Test("Two tracks arriving in bursts leave in decode-time order, nothing lost")
    func interleaves() {
        var interleaver = DecodeOrderInterleaver(hasVideo: true, hasAudio: true)
        var out: [OutgoingMedia] = []
        // Video comes in bursts of 5 (an encoder with lookahead), audio steadily.
        var audioIndex = 0
        for burst in 0..<6 {
            for index in burst * 5..<(burst + 1) * 5 { out += interleaver.push(.video(SyntheticMedia.picture(index, bytes: 10), index: index)) }
            while Double(audioIndex) * 1024 / 48_000 < Double((burst + 1) * 5) / 30 {
                out += interleaver.push(.audio(SyntheticMedia.audio(audioIndex), index: audioIndex))
                audioIndex += 1
            }
        }
        out += interleaver.drain()
        #expect(out.count == 30 + audioIndex)
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.decodeTime <= $1.decodeTime }, "decode times never go back")
        #expect(out.filter(\.isVideo).count == 30)
    }

    @Test("A silent track holds the other no longer than the lead")
    func silentTrack() {
        var interleaver = DecodeOrderInterleaver(hasVideo: true, hasAudio: true, maximumLeadSeconds: 1)
        var released = 0
        for index in 0..<90 { released += interleaver.push(.video(SyntheticMedia.picture(index, bytes: 10), index: index)).count }
        #expect(released >= 90 - 31 && released < 90)
    }
}

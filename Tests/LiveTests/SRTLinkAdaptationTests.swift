import StreamKit
import Testing

/// ``SRTLinkAdaptation``'s rules on counters as libsrt reports them: a send buffer that holds media longer than a round
/// trip by half the latency, or packets the sender dropped, in two readings in a row, step the rate down; a drained
/// buffer steps it up again; a listener left without pullers returns to the stream's rate. ``SRTPeerLiveness`` tells a
/// peer that stopped acknowledging from a narrow link.
struct SRTLinkAdaptationTests {
    static func counters(bufferMilliseconds: Int, rttMilliseconds: Int = 2, droppedBySender: Int = 0,
                         acknowledgements: Int = 0, lossReports: Int = 0, inFlight: Int = 0) -> SRTStatistics {
        var statistics = SRTStatistics()
        statistics.acknowledgementsReceived = acknowledgements
        statistics.negativeAcknowledgementsReceived = lossReports
        statistics.packetsInFlight = inFlight
        statistics.sendBufferDelay = .milliseconds(bufferMilliseconds)
        statistics.roundTripTime = .milliseconds(rttMilliseconds)
        statistics.packetsDroppedBySender = droppedBySender
        return statistics
    }

    @Test("a healthy link (the buffer holds a round trip and an acknowledgement's wait) keeps the rate")
    func healthyLinkKeepsTheRate() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(400))
        for step in 0..<40 {
            let change = adaptation.observe([Self.counters(bufferMilliseconds: 14, rttMilliseconds: 4)], refusedPackets: 0, at: Double(step) * 0.25)
            #expect(change == nil, "at \(Double(step) * 0.25) s")
        }
        // A long round trip is not a backlog: 300 ms in the buffer over a 280 ms round trip.
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 300, rttMilliseconds: 280)], refusedPackets: 0, at: 11) == nil)
    }

    @Test("a backlog beyond half the latency steps the rate down, at most once per latency, and a drained link brings it back")
    func backlogStepsDownThenUp() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(400))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 150)], refusedPackets: 0, at: 0) == nil, "148 ms: under 200 ms")
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 260)], refusedPackets: 0, at: 0.25) == nil, "one reading alone")
        let first = adaptation.observe([Self.counters(bufferMilliseconds: 280)], refusedPackets: 0, at: 0.5)
        #expect(first == 700_000)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 330)], refusedPackets: 0, at: 0.75) == nil, "too soon after a step")
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 360)], refusedPackets: 0, at: 1.0) == Int(Double(700_000) * 0.7))
        // Drained: the rate climbs after two seconds under an eighth of the latency.
        var raised: Int?
        var time = 1.25
        while raised == nil, time < 5 {
            raised = adaptation.observe([Self.counters(bufferMilliseconds: 20)], refusedPackets: 0, at: time)
            time += 0.25
        }
        #expect(raised.map { $0 > 490_000 } == true && time > 3.1, "\(String(describing: raised)) at \(time)")
    }

    @Test("packets the sender dropped, or a full send buffer refused, step the rate down even while the buffer looks short")
    func dropsStepDown() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(120))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 5)], refusedPackets: 0, at: 0) == nil,
                "drops before the first look are history")
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 9)], refusedPackets: 0, at: 1) == nil, "one reading alone")
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 11)], refusedPackets: 0, at: 1.25) == 700_000)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 11)], refusedPackets: 3, at: 2) == Int(Double(700_000) * 0.7))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 11)], refusedPackets: 3, at: 3) == nil)
    }

    @Test("a backlog that drains after a step down holds the rate: no second step while the queue empties")
    func drainingBacklogHoldsTheRate() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(400))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 150)], refusedPackets: 0, at: 0) == nil)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 300)], refusedPackets: 0, at: 0.25) == nil)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 320)], refusedPackets: 0, at: 0.5) == 700_000)
        // Still above the high-water mark for seconds, but shrinking: held.
        for (step, milliseconds) in [330, 315, 300, 280, 250, 230, 210].enumerated() {
            let time = 1 + Double(step) * 0.5
            #expect(adaptation.observe([Self.counters(bufferMilliseconds: milliseconds)], refusedPackets: 0, at: time) == nil, "at \(time) s")
        }
        // Growing again by more than a twentieth of the latency: the next step.
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 260)], refusedPackets: 0, at: 4.5) == Int(Double(700_000) * 0.7))
    }

    @Test("of several pullers the slowest decides")
    func slowestPullerDecides() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(400))
        // The slow puller's backlog grows (a flat one above the mark would be a draining queue, held).
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 12), Self.counters(bufferMilliseconds: 350)], refusedPackets: 0, at: 0) == nil)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 14), Self.counters(bufferMilliseconds: 600)], refusedPackets: 0, at: 0.25) == 700_000)
    }

    @Test("a listener whose pullers have all gone returns to the stream's rate; one already there suggests nothing")
    func restoreWithoutPullers() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(120))
        #expect(adaptation.restore() == nil)
        for step in 0..<3 { _ = adaptation.observe([Self.counters(bufferMilliseconds: 400)], refusedPackets: 0, at: Double(step)) }
        #expect(adaptation.controller.bitRate < 500_000, "two steps down")
        #expect(adaptation.restore() == 1_000_000)
        #expect(adaptation.controller.bitRate == 1_000_000)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 400)], refusedPackets: 0, at: 3) == nil, "measured afresh")
    }

    @Test("a peer that stops acknowledging with media in flight is silent after the limit; a narrow link that acknowledges is not")
    func livenessFromAcknowledgements() {
        var vanished = SRTPeerLiveness()
        let readings = [(20, 500, 4, 0.0), (160, 500, 40, 0.15), (260, 500, 90, 0.25), (510, 500, 180, 0.5), (40, 501, 3, 0.75)]
        let answers = readings.map { buffer, acknowledgements, inFlight, time in
            vanished.observe(Self.counters(bufferMilliseconds: buffer, acknowledgements: acknowledgements, inFlight: inFlight), at: time)
        }
        #expect(answers == [true, true, false, false, true], "silent after 0.2 s without an acknowledgement; answering again after one")
        var narrow = SRTPeerLiveness()
        let narrowAnswers = (0..<20).map { step in
            narrow.observe(Self.counters(bufferMilliseconds: 300, acknowledgements: 100 + step * 3, inFlight: 60), at: Double(step) * 0.25)
        }
        #expect(!narrowAnswers.contains(false), "a narrow link still acknowledges")
        // Behind a congested queue the acknowledgement number waits for a retransmission while loss reports go on.
        var congested = SRTPeerLiveness()
        let congestedAnswers = (0..<8).map { step in
            congested.observe(Self.counters(bufferMilliseconds: 350, acknowledgements: 900, lossReports: 40 + step, inFlight: 80), at: Double(step) * 0.25)
        }
        #expect(!congestedAnswers.contains(false), "loss reports are answers too")
        var mute = SRTPeerLiveness()
        let muteAnswers = (0..<3).map { step in
            mute.observe(Self.counters(bufferMilliseconds: 350, acknowledgements: 900, lossReports: 40, inFlight: 80), at: Double(step) * 0.25)
        }
        #expect(muteAnswers == [true, false, false], "neither kind for 0.25 s: silent")
        var idle = SRTPeerLiveness()
        let idleAnswers = (0..<20).map { step in idle.observe(Self.counters(bufferMilliseconds: 0, acknowledgements: 7), at: Double(step) * 0.25) }
        #expect(!idleAnswers.contains(false), "nothing waits for an answer")
    }
}

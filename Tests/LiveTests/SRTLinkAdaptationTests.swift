import StreamKit
import Testing

/// ``SRTLinkAdaptation``'s rules on counters as libsrt reports them: a send buffer that holds media longer than a round
/// trip by half the latency, or packets the sender dropped, step the rate down; a drained buffer steps it up again.
struct SRTLinkAdaptationTests {
    static func counters(bufferMilliseconds: Int, rttMilliseconds: Int = 2, droppedBySender: Int = 0) -> SRTStatistics {
        var statistics = SRTStatistics()
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
        let first = adaptation.observe([Self.counters(bufferMilliseconds: 260)], refusedPackets: 0, at: 0.25)
        #expect(first == 700_000)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 300)], refusedPackets: 0, at: 0.5) == nil, "too soon after a step")
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 300)], refusedPackets: 0, at: 0.75) == Int(Double(700_000) * 0.7))
        // Drained: the rate climbs after two seconds under an eighth of the latency.
        var raised: Int?
        var time = 1.0
        while raised == nil, time < 5 {
            raised = adaptation.observe([Self.counters(bufferMilliseconds: 20)], refusedPackets: 0, at: time)
            time += 0.25
        }
        #expect(raised.map { $0 > 490_000 } == true && time > 2.9, "\(String(describing: raised)) at \(time)")
    }

    @Test("packets the sender dropped, or a full send buffer refused, step the rate down even while the buffer looks short")
    func dropsStepDown() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(120))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 5)], refusedPackets: 0, at: 0) == nil,
                "drops before the first look are history")
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 9)], refusedPackets: 0, at: 1) == 700_000)
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 9)], refusedPackets: 3, at: 2) == Int(Double(700_000) * 0.7))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 10, droppedBySender: 9)], refusedPackets: 3, at: 3) == nil)
    }

    @Test("a backlog that drains after a step down holds the rate: no second step while the queue empties")
    func drainingBacklogHoldsTheRate() {
        var adaptation = SRTLinkAdaptation(initialBitRate: 1_000_000, minimumBitRate: 100_000, latency: .milliseconds(400))
        #expect(adaptation.observe([Self.counters(bufferMilliseconds: 150)], refusedPackets: 0, at: 0) == nil)
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
        let change = adaptation.observe([Self.counters(bufferMilliseconds: 12), Self.counters(bufferMilliseconds: 350)], refusedPackets: 0, at: 0)
        #expect(change == 700_000)
    }
}

import Foundation
import RTP
import Testing
import TestSupport

/// Reception statistics on made-up arrivals (RFC 3550 A.1, A.3, A.8), and against tshark's RTP stream
/// analysis of the same packets.
@Suite struct ReceptionStatisticsTests {
    /// Feeds sequence numbers (20 ms apart, 160 units of an 8 kHz clock each) and returns the outcomes.
    static func feed(_ numbers: [UInt16], into statistics: inout ReceptionStatistics, start: Int = 0) -> [ReceptionStatistics.Outcome] {
        numbers.enumerated().map { index, number in
            statistics.record(sequenceNumber: number, timestamp: UInt32(number) &* 160, arrival: .milliseconds(20 * (start + index)))
        }
    }

    @Test func countsAStreamWithoutLoss() {
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 8000)
        let outcomes = Self.feed(Array(1...100), into: &statistics)
        #expect(outcomes.first == .probation && outcomes.dropFirst().allSatisfy { $0 == .inOrder })
        #expect(statistics.isValid && statistics.packetsReceived == 99 && statistics.expectedPackets == 99)
        #expect(statistics.cumulativeLost == 0 && statistics.extendedHighestSequenceNumber == 100)
        #expect(statistics.jitter == 0)
        let block = statistics.makeReportBlock(at: .seconds(3))
        #expect(block?.fractionLost == 0 && block?.cumulativeLost == 0 && block?.extendedHighestSequenceNumber == 100)
    }

    @Test func countsLossPerInterval() {
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 8000)
        _ = Self.feed(Array(1...50), into: &statistics)
        _ = statistics.makeReportBlock(at: .seconds(1))
        // 51…150 with 25 of them lost: a quarter of the interval, 64/256.
        let kept = (51...150).filter { $0 % 4 != 0 }.map(UInt16.init)
        _ = Self.feed(kept, into: &statistics, start: 50)
        let block = statistics.makeReportBlock(at: .seconds(4))
        #expect(block?.fractionLost == 64)
        #expect(block?.cumulativeLost == 25 && statistics.packetsLost == 25)
        // The next interval, without loss, reports 0 again.
        _ = Self.feed(Array(151...160), into: &statistics, start: 150)
        #expect(statistics.makeReportBlock(at: .seconds(5))?.fractionLost == 0)
    }

    @Test func tellsReorderedFromDuplicated() {
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 8000)
        let outcomes = Self.feed([1, 2, 3, 5, 4, 6, 6, 3, 7], into: &statistics)
        #expect(outcomes == [.probation, .inOrder, .inOrder, .inOrder, .reordered, .inOrder, .duplicate, .duplicate, .inOrder])
        #expect(statistics.reorderedPackets == 1 && statistics.duplicatePackets == 2)
        // Duplicates count as received (A.3), so the cumulative loss goes negative; the true loss is 0.
        #expect(statistics.cumulativeLost == -2 && statistics.packetsLost == 0)
    }

    @Test func extendsAcrossTheSequenceWrap() {
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 90_000)
        let numbers: [UInt16] = Array(65_530...65_535) + Array(0...9)
        _ = Self.feed(numbers, into: &statistics)
        #expect(statistics.extendedHighestSequenceNumber == 65_536 + 9)
        #expect(statistics.expectedPackets == 15 && statistics.cumulativeLost == 0)
        // A late packet from before the wrap is reordered, not a jump.
        #expect(statistics.record(sequenceNumber: 65_529, timestamp: 0, arrival: .seconds(1)) == .reordered)
    }

    @Test func restartsWhenTheSenderDoes() {
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 8000)
        _ = Self.feed(Array(1...10), into: &statistics)
        #expect(statistics.record(sequenceNumber: 20_000, timestamp: 0, arrival: .seconds(1)) == .sequenceJump)
        #expect(statistics.record(sequenceNumber: 20_001, timestamp: 160, arrival: .seconds(1)) == .restarted)
        #expect(statistics.restarts == 1 && statistics.expectedPackets == 1 && statistics.extendedHighestSequenceNumber == 20_001)
        // A lone stray packet is no restart.
        #expect(statistics.record(sequenceNumber: 40_000, timestamp: 0, arrival: .seconds(2)) == .sequenceJump)
        #expect(statistics.record(sequenceNumber: 20_002, timestamp: 320, arrival: .seconds(2)) == .inOrder)
    }

    @Test func reportsDelaySinceTheLastSenderReport() {
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 8000)
        _ = Self.feed([1, 2, 3], into: &statistics)
        let ntp = NTPTimestamp(seconds: 0x1234_5678, fraction: 0x9ABC_DEF0)
        statistics.recordSenderReport(RTCPSenderReport(ssrc: 1, ntpTimestamp: ntp, rtpTimestamp: 0, packetCount: 3, octetCount: 0),
                                      arrival: .seconds(10))
        let block = statistics.makeReportBlock(at: .milliseconds(10_500))
        #expect(block?.lastSenderReport == 0x5678_9ABC)
        #expect(block?.delaySinceLastSenderReport == 32_768, "half a second in 1/65536 s")
    }

    /// The same packets, the same arrival times: our loss count and jitter against tshark's RTP analysis.
    @Test(.enabled(if: ExternalTool.isRunnable("tshark")))
    func agreesWithTsharkOnLossAndJitter() async throws {
        var random = SplitMix64(seed: 42)
        var datagrams: [(seconds: Double, payload: [UInt8])] = []
        var statistics = ReceptionStatistics(ssrc: 0x5EED, clockRate: 8000)
        var jitters: [Double] = []
        for number in 0..<400 {
            if number % 37 == 5 || number % 53 == 11 { continue }
            let sequence = UInt16(truncatingIfNeeded: 65_400 + number)
            let timestamp = UInt32(number * 160)
            // 20 ms apart, with up to ±4 ms of network jitter, in whole microseconds (the capture's resolution).
            let noise = Double(Int(random.next() % 8001) - 4000) / 1_000_000
            let arrival = (100 + Double(number) * 0.020 + noise) * 1_000_000
            let seconds = arrival.rounded() / 1_000_000
            var packet: [UInt8] = [0x80, 0, UInt8(sequence >> 8), UInt8(sequence & 0xFF)]
            packet += [UInt8(timestamp >> 24), UInt8(timestamp >> 16 & 0xFF), UInt8(timestamp >> 8 & 0xFF), UInt8(timestamp & 0xFF)]
            packet += [0, 0, 0x5E, 0xED] + [UInt8](repeating: 0xFF, count: 160)
            datagrams.append((seconds, packet))
            statistics.record(sequenceNumber: sequence, timestamp: timestamp,
                              arrival: .microseconds(Int64(arrival.rounded())))
            if statistics.isValid { jitters.append(statistics.jitterSeconds * 1000) }
        }
        let directory = try ExternalTool.temporaryDirectory()
        let capture = directory.appendingPathComponent("rtp.pcap")
        try PacketCapture.write(datagrams, sourcePort: 23_210, destinationPort: 23_212, to: capture)
        let report = try await ExternalTool.check("tshark", ["-r", capture.path, "-d", "udp.port==23212,rtp", "-q", "-z", "rtp,streams"]).text
        let line = try #require(report.split(separator: "\n").first { $0.uppercased().contains("0X00005EED") }, "\(report)")
        let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // … SSRC Payload Pkts Lost (percent) Min/Mean/Max delta … Min/Mean/Max jitter …
        let packets = try #require(fields.firstIndex { $0.uppercased() == "0X00005EED" }.map { fields[$0 + 2] }.flatMap { Int($0) }, "\(line)")
        let lostIndex = try #require(fields.firstIndex { $0.uppercased() == "0X00005EED" }.map { $0 + 3 })
        #expect(packets == datagrams.count)
        #expect(Int(fields[lostIndex]) == Int(statistics.packetsLost), "tshark: \(line)")
        let numbers = fields.compactMap(Double.init)
        // The last three numbers of the line are min, mean and max jitter in ms.
        let maxJitter = try #require(numbers.last)
        #expect(abs(maxJitter - (jitters.max() ?? 0)) < 0.01, "ours \(jitters.max() ?? 0) ms, tshark: \(line)")
    }
}

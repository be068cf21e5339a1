import Bitstream
import RTP
import Testing
import TestSupport

/// ``RTPNACKJitterBuffer``: order across the wrap, NACKs for each hole with their retries and their limit, a hole
/// given up after the bounded delay, the capacity bound, and recovery counted when a NACKed packet comes.
@Suite struct RTPNACKJitterBufferTests {
    static func rtp(_ sequence: UInt16) -> RTPPacket {
        RTPPacket(marker: true, payloadType: 96, sequenceNumber: sequence, timestamp: UInt32(sequence), ssrc: 1,
                  payload: ByteView([0x41, UInt8(truncatingIfNeeded: sequence)]))
    }

    static func release(_ buffer: inout RTPNACKJitterBuffer, at now: Duration, into order: inout [UInt16], lost: inout [UInt16]) {
        while let output = buffer.next(at: now) {
            switch output {
            case .packet(let packet): order.append(packet.sequenceNumber)
            case let .lost(first, count): lost += (0..<count).map { first &+ UInt16($0) }
            }
        }
    }

    @Test func asksForEachHoleAndRecoversItWhenTheRepairComes() {
        var generator = SplitMix64(seed: 11)
        let numbers = (0..<2000).map { UInt16(64000) &+ UInt16($0) }
        // 5 % dropped at random; each dropped packet is sent again 30 ms after it was asked for.
        var dropped = Set<UInt16>()
        for number in numbers.dropLast() where generator.next() % 20 == 0 { dropped.insert(number) }
        var buffer = RTPNACKJitterBuffer()
        var order: [UInt16] = [], lost: [UInt16] = []
        var repairs: [(due: Duration, number: UInt16)] = []
        var asked: [UInt16] = []
        for (index, number) in numbers.enumerated() {
            let now = Duration.milliseconds(index * 5)
            for repair in repairs where repair.due <= now { buffer.insert(Self.rtp(repair.number), at: now) }
            repairs.removeAll { $0.due <= now }
            if !dropped.contains(number) { buffer.insert(Self.rtp(number), at: now) }
            for request in buffer.requests(at: now) {
                asked.append(request)
                repairs.append((now + .milliseconds(30), request))
            }
            Self.release(&buffer, at: now, into: &order, lost: &lost)
        }
        for repair in repairs { buffer.insert(Self.rtp(repair.number), at: .seconds(10)) }
        for output in buffer.drain() { if case .packet(let packet) = output { order.append(packet.sequenceNumber) } }
        #expect(dropped.count > 50)
        #expect(Set(asked) == dropped, "every hole was asked for")
        #expect(asked.count == Set(asked).count, "no hole was asked for twice: each repair came within the retry interval")
        #expect(buffer.statistics.recovered == dropped.count)
        #expect(order == numbers, "every packet came out once, in order across the wrap")
        #expect(lost.isEmpty)
    }

    @Test func retriesThenGivesUpAfterTheDelay() {
        var buffer = RTPNACKJitterBuffer(configuration: .init(capacity: 64, maximumDelay: .milliseconds(200), retryInterval: .milliseconds(50),
                                                             maximumRequests: 3))
        var order: [UInt16] = [], lost: [UInt16] = []
        buffer.insert(Self.rtp(10), at: .zero)
        buffer.insert(Self.rtp(13), at: .milliseconds(1))
        var requests: [[UInt16]] = []
        for step in 0...30 {
            let now = Duration.milliseconds(1 + step * 10)
            let due = buffer.requests(at: now)
            if !due.isEmpty { requests.append(due) }
            Self.release(&buffer, at: now, into: &order, lost: &lost)
        }
        #expect(requests == [[11, 12], [11, 12], [11, 12]], "asked at 1, 51 and 101 ms, then the limit of 3")
        #expect(order == [10, 13])
        #expect(lost == [11, 12])
        #expect(buffer.statistics.lost == 2)
        #expect(buffer.missingPackets == 0)
    }

    @Test func holdsNoMoreThanItsCapacity() {
        var buffer = RTPNACKJitterBuffer(configuration: .init(capacity: 32, maximumDelay: .seconds(100)))
        var order: [UInt16] = [], lost: [UInt16] = []
        buffer.insert(Self.rtp(0), at: .zero)
        for number in UInt16(2)..<UInt16(200) {
            buffer.insert(Self.rtp(number), at: .zero)
            Self.release(&buffer, at: .zero, into: &order, lost: &lost)
            #expect(buffer.heldPackets <= 32)
            #expect(buffer.missingPackets <= 32)
        }
        #expect(lost == [1], "the hole was given up when the buffer filled, not after the (long) delay")
        #expect(buffer.insert(Self.rtp(1), at: .zero) == .late)
        // A jump far ahead gives up what stands before it.
        buffer.insert(Self.rtp(30000), at: .zero)
        Self.release(&buffer, at: .zero, into: &order, lost: &lost)
        #expect(buffer.heldPackets <= 32)
        #expect(order.last == 199 || order.last == 30000)
    }
}

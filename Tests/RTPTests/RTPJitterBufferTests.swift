import Bitstream
import RTP
import Testing
import TestSupport

@Suite struct RTPJitterBufferTests {
    static func rtp(_ sequence: UInt16) -> RTPPacket {
        RTPPacket(marker: true, payloadType: 96, sequenceNumber: sequence, timestamp: UInt32(sequence), ssrc: 1,
                  payload: ByteView([0x41, UInt8(truncatingIfNeeded: sequence)]))
    }

    /// Releases what the buffer can, as sequence numbers (lost runs as negative counts).
    static func release(_ buffer: inout RTPJitterBuffer, into order: inout [UInt16], lost: inout [UInt16]) {
        while let output = buffer.next() {
            switch output {
            case .packet(let packet): order.append(packet.sequenceNumber)
            case let .lost(first, count): lost += (0..<count).map { first &+ UInt16($0) }
            }
        }
    }

    @Test func reordersAcrossTheWrapAndDropsDuplicates() {
        var generator = SplitMix64(seed: 3)
        let sequence = (0..<400).map { UInt16(65400) &+ UInt16($0) }
        var arrival = sequence
        // Shuffle inside blocks of 8 (well within the window) and repeat some packets.
        for start in stride(from: 0, to: arrival.count, by: 8) {
            arrival[start..<min(start + 8, arrival.count)].shuffle(using: &generator)
        }
        arrival.insert(arrival[20], at: 30)
        arrival.insert(arrival[100], at: 101)
        var buffer = RTPJitterBuffer(reorderWindow: 32)
        var order: [UInt16] = []
        var lost: [UInt16] = []
        var duplicates = 0
        for number in arrival {
            if buffer.insert(Self.rtp(number)) == .duplicate { duplicates += 1 }
            Self.release(&buffer, into: &order, lost: &lost)
        }
        for output in buffer.drain() { if case .packet(let packet) = output { order.append(packet.sequenceNumber) } }
        #expect(order == sequence)
        #expect(lost.isEmpty && duplicates == 2)
        #expect(buffer.statistics.reordered > 0)
    }

    @Test func reportsEveryMissingPacketOnce() {
        var buffer = RTPJitterBuffer(reorderWindow: 16)
        let dropped: Set<UInt16> = [5, 6, 7, 40, 41, 100]
        var order: [UInt16] = []
        var lost: [UInt16] = []
        for number in UInt16(0)..<200 where !dropped.contains(number) {
            buffer.insert(Self.rtp(number))
            Self.release(&buffer, into: &order, lost: &lost)
        }
        // A jump far past the window gives up everything before it.
        buffer.insert(Self.rtp(1000))
        Self.release(&buffer, into: &order, lost: &lost)
        #expect(order == (0..<200).filter { !dropped.contains($0) } + [1000])
        #expect(Set(lost) == dropped.union(200..<1000) && lost.count == Set(lost).count)
        #expect(buffer.insert(Self.rtp(50)) == .late)
    }
}

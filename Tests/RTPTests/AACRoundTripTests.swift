import Bitstream
import RTP
import Testing
import TestSupport

@Suite struct AACRoundTripTests {
    static let state = RTPSenderState(payloadType: 97, ssrc: 5, sequenceNumber: 65534, timestampOffset: 100)

    static func collect(_ packets: [[UInt8]], _ depacketizer: inout AACDepacketizer) throws -> Collected<RTPAudioFrame> {
        var collected = Collected<RTPAudioFrame>()
        for bytes in packets {
            collected.outcomes.append(try depacketizer.depacketize(RTPPacket(parsing: ByteView(bytes))) { collected.take($0) })
        }
        return collected
    }

    @Test func severalUnitsPerPacketAndFragmentsOfLargeOnes() throws {
        var generator = SplitMix64(seed: 4)
        let sizes = [200, 180, 3000, 250, 90, 1100, 5000, 7]
        let units = sizes.map { SyntheticStream.nal([0x21], size: $0, using: &generator) }
        var packetizer = try AACPacketizer(maximumPacketSize: 500, state: Self.state)
        var packets: [[UInt8]] = []
        try packetizer.packetize(accessUnits: units, timestamp: 0) { packets.append(Array($0)) }
        #expect(packets.allSatisfy { $0.count <= 500 })
        // The first packet holds the two small units: AU-headers-length 32 bits, sizes 200 and 180 (<< 3).
        #expect(Array(packets[0][12..<18]) == [0x00, 0x20, 0x06, 0x40, 0x05, 0xA0])
        var depacketizer = try AACDepacketizer()
        let collected = try Self.collect(packets, &depacketizer)
        #expect(collected.lost.isEmpty)
        #expect(collected.frames.map(\.data) == units)
        let expected: [UInt32] = (0..<8).map { (index: Int) -> UInt32 in UInt32(index * 1024 + 100) }
        #expect(collected.frames.map(\.timestamp) == expected)
        #expect(throws: RTPPacketizerError.accessUnitTooLarge(size: 9000, maximum: 8191)) {
            try packetizer.packetize(accessUnits: [ByteView([UInt8](repeating: 1, count: 9000))], timestamp: 0) { _ in }
        }
    }

    @Test func aLostFragmentLosesItsUnitOnly() throws {
        var generator = SplitMix64(seed: 5)
        let units = [40, 3000, 60].map { SyntheticStream.nal([0x21], size: $0, using: &generator) }
        var packetizer = try AACPacketizer(maximumPacketSize: 1000, state: Self.state)
        var packets: [[UInt8]] = []
        try packetizer.packetize(accessUnits: units, timestamp: 0) { packets.append(Array($0)) }
        #expect(packets.count == 6)  // [40], 4 fragments of 3000, [60]
        packets.remove(at: 2)
        var depacketizer = try AACDepacketizer()
        let collected = try Self.collect(packets, &depacketizer)
        #expect(collected.frames.map(\.data) == [units[0], units[2]])
        let lostTimestamps: [UInt32] = collected.lost.map(\.timestamp)
        #expect(lostTimestamps == [1124])
        // The fragments after the gap have lost their start: dropped with that outcome, never made into a unit.
        #expect(collected.outcomes.filter { $0 == .fragmentWithoutStart }.count == 2)
    }

    @Test func malformedAUHeadersAreTypedErrors() throws {
        var depacketizer = try AACDepacketizer()
        let cases: [[UInt8]] = [[0x00], [0x00, 0x40, 0x01], [0x00, 0x20, 0x00, 0x80, 0x00, 0x80, 1, 2]]
        for (index, payload) in cases.enumerated() {
            let rtp = try RTPPacket(parsing: ByteView(packet(UInt16(index), payload, marker: true)))
            #expect(throws: RTPPayloadError.self) { _ = try depacketizer.depacketize(rtp) { _ in } }
        }
    }
}

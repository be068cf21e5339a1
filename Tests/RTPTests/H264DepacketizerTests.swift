import Bitstream
import RTP
import Testing
import TestSupport

/// A packet from a payload, for hand-made streams.
func packet(_ sequence: UInt16, _ payload: [UInt8], timestamp: UInt32 = 1000, marker: Bool = false) -> [UInt8] {
    RTPPacket(marker: marker, payloadType: 96, sequenceNumber: sequence, timestamp: timestamp, ssrc: 7,
              payload: ByteView(payload)).serialized()
}

@Suite struct H264DepacketizerTests {
    @Test(arguments: [(UInt8(25), "STAP-B"), (26, "MTAP16"), (27, "MTAP24"), (29, "FU-B"), (0, "reserved"), (30, "reserved")])
    func interleavedModeTypesAreRejected(type: UInt8, name: String) throws {
        var depacketizer = H264Depacketizer()
        let rtp = try RTPPacket(parsing: ByteView(packet(5, [0x60 | type, 0, 1, 2], marker: true)))
        #expect(throws: RTPPayloadError.unsupportedPacketType(sequenceNumber: 5, type: type, name: name)) {
            _ = try depacketizer.depacketize(rtp) { _ in }
        }
    }

    @Test func aFragmentWithoutItsStartIsDroppedNeverForged() throws {
        var depacketizer = H264Depacketizer(withholdsUntilKeyFrame: false)
        // Joined mid-stream: a middle and an end fragment of an IDR, then a whole P frame.
        let packets = [packet(10, [0x7C, 0x05, 1, 2, 3]), packet(11, [0x7C, 0x45, 4, 5], marker: true),
                       packet(12, [0x41, 9, 9], timestamp: 4000, marker: true)]
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.outcomes == [.fragmentWithoutStart, .fragmentWithoutStart, .completedFrame])
        #expect(collected.lost.map(\.reason) == [.fragmentWithoutStart])
        #expect(collected.frames.map { $0.nalUnits.map(Array.init) } == [[[0x41, 9, 9]]])
    }

    @Test func startAndEndInOneFragmentIsOneNALUnit() throws {
        var depacketizer = H264Depacketizer()
        let collected = try depacketizeH264([packet(1, [0x7C, 0xC5, 1, 2, 3], marker: true)], &depacketizer)
        #expect(collected.frames.map { $0.nalUnits.map(Array.init) } == [[[0x65, 1, 2, 3]]])
    }

    @Test func aMissingMiddleFragmentLosesTheFrameAndWithholdsUntilTheNextIDR() throws {
        var depacketizer = H264Depacketizer()
        let packets = [
            packet(1, [0x7C, 0x85, 1], timestamp: 0), /* 2 lost */ packet(3, [0x7C, 0x45, 3], timestamp: 0, marker: true),
            packet(4, [0x41, 7], timestamp: 3000, marker: true),
            packet(5, [0x65, 8], timestamp: 6000, marker: true),
            packet(6, [0x41, 9], timestamp: 9000, marker: true),
        ]
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.lost == [RTPFrameLoss(timestamp: 0, firstSequenceNumber: 1, lastSequenceNumber: 3,
                                                reason: .packetsMissing(firstSequenceNumber: 2, count: 1))])
        #expect(collected.withheld.map(\.timestamp) == [3000])
        #expect(collected.frames.map(\.timestamp) == [6000, 9000])
    }

    @Test func aGapBetweenFramesDamagesTheNextFrame() throws {
        var depacketizer = H264Depacketizer()
        let packets = [packet(1, [0x65, 1], timestamp: 0, marker: true), /* 2, 3 lost */
                       packet(4, [0x41, 7], timestamp: 6000, marker: true)]
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.frames.map(\.timestamp) == [0])
        #expect(collected.lost.map(\.reason) == [.packetsMissing(firstSequenceNumber: 2, count: 2)])
    }

    @Test func framesEndAtATimestampChangeWithoutMarker() throws {
        var depacketizer = H264Depacketizer()
        let packets = [packet(1, [0x65, 1], timestamp: 0), packet(2, [0x41, 2], timestamp: 3000)]
        var collected = Collected<RTPAccessUnit>()
        for bytes in packets { _ = try depacketizer.depacketize(RTPPacket(parsing: ByteView(bytes))) { collected.take($0) } }
        #expect(collected.frames.map(\.timestamp) == [0])
        depacketizer.flush { collected.take($0) }
        #expect(collected.frames.map(\.timestamp) == [0, 3000])
    }

    @Test func aFragmentCutByTheNextTimestampLosesItsFrame() throws {
        var depacketizer = H264Depacketizer(withholdsUntilKeyFrame: false)
        let packets = [packet(1, [0x41, 1], timestamp: 0), packet(2, [0x7C, 0x81, 2], timestamp: 0),
                       packet(3, [0x41, 3], timestamp: 3000, marker: true)]
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.lost.map(\.reason) == [.fragmentWithoutEnd])
        #expect(collected.frames.map(\.timestamp) == [3000])
    }

    @Test func duplicatesAndLatePacketsAreNamed() throws {
        var depacketizer = H264Depacketizer()
        let packets = [packet(10, [0x65, 1], timestamp: 0, marker: true), packet(10, [0x65, 1], timestamp: 0, marker: true),
                       packet(9, [0x41, 1], timestamp: 0, marker: true)]
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.outcomes == [.completedFrame, .duplicate, .late])
    }

    @Test func malformedAggregationsNameTheOffset() throws {
        var depacketizer = H264Depacketizer()
        let rtp = try RTPPacket(parsing: ByteView(packet(3, [0x78, 0, 2, 0x67, 1, 0, 9, 0x68], marker: true)))
        #expect(throws: RTPPayloadError.malformedAggregation(sequenceNumber: 3, byteOffset: 5)) {
            _ = try depacketizer.depacketize(rtp) { _ in }
        }
    }

    @Test func theLargestAccessUnitCapHolds() throws {
        var depacketizer = H264Depacketizer(maximumAccessUnitSize: 100, maximumNALUnitCount: 2)
        var packetizer = try H264Packetizer(maximumPacketSize: 60)
        var generator = SplitMix64(seed: 9)
        let big = [SyntheticStream.nal([0x65], size: 500, using: &generator)]
        let many = (0..<3).map { _ in SyntheticStream.nal([0x65], size: 5, using: &generator) }
        let packets = packetizer.packets(nalUnits: big, timestamp: 0) + packetizer.packets(nalUnits: many, timestamp: 1)
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.frames.isEmpty)
        #expect(collected.lost.map(\.reason) == [.accessUnitTooLarge(limit: 100), .tooManyNALUnits(limit: 2)])
    }
}

import Bitstream
import RTP
import Testing
import TestSupport

/// Synthetic access units: NAL units with a real header byte and random bodies.
enum SyntheticStream {
    static func nal(_ header: [UInt8], size: Int, using generator: inout SplitMix64) -> ByteView {
        var bytes = header
        while bytes.count < size { bytes.append(UInt8.random(in: 1...255, using: &generator)) }
        return ByteView(bytes)
    }

    /// A GOP of H.264 access units: IDR (with SPS/PPS when `withParameterSets`) then P frames of mixed sizes.
    static func h264(frames: Int, withParameterSets: Bool = true, seed: UInt64 = 1) -> [[ByteView]] {
        var generator = SplitMix64(seed: seed)
        var units: [[ByteView]] = []
        for index in 0..<frames {
            if index % 10 == 0 {
                var au: [ByteView] = []
                if withParameterSets {
                    au.append(nal([0x67], size: 12, using: &generator))
                    au.append(nal([0x68], size: 4, using: &generator))
                }
                au.append(nal([0x06, 0x05], size: 30, using: &generator))  // SEI (user data), small
                au.append(nal([0x65], size: 6000 + index, using: &generator))
                units.append(au)
            } else {
                let size = [40, 300, 1500, 3000][index % 4]
                units.append([nal([0x41], size: size, using: &generator), nal([0x01], size: 20, using: &generator)])
            }
        }
        return units
    }

    /// H.265: VPS/SPS/PPS + IDR_W_RADL (19), then TRAIL_R (1) pictures.
    static func h265(frames: Int, seed: UInt64 = 2) -> [[ByteView]] {
        var generator = SplitMix64(seed: seed)
        var units: [[ByteView]] = []
        for index in 0..<frames {
            if index % 10 == 0 {
                units.append([nal([0x40, 0x01], size: 24, using: &generator), nal([0x42, 0x01], size: 40, using: &generator),
                              nal([0x44, 0x01], size: 8, using: &generator), nal([0x26, 0x01], size: 7000, using: &generator)])
            } else {
                units.append([nal([0x02, 0x01], size: [50, 900, 2500][index % 3], using: &generator)])
            }
        }
        return units
    }
}

/// Feeds packets through a depacketizer and collects what comes out.
struct Collected<Frame: Sendable> {
    var frames: [Frame] = []
    var lost: [RTPFrameLoss] = []
    var withheld: [RTPFrameLoss] = []
    var outcomes: [RTPPacketOutcome] = []
    var errors: [RTPPayloadError] = []

    mutating func take(_ event: RTPFrameEvent<Frame>) {
        switch event {
        case .frame(let frame): frames.append(frame)
        case .lost(let loss): lost.append(loss)
        case .withheld(let loss): withheld.append(loss)
        }
    }
}

func depacketizeH264(_ packets: [[UInt8]], _ depacketizer: inout H264Depacketizer) throws -> Collected<RTPAccessUnit> {
    var collected = Collected<RTPAccessUnit>()
    for bytes in packets {
        let packet = try RTPPacket(parsing: ByteView(bytes))
        do {
            collected.outcomes.append(try depacketizer.depacketize(packet) { collected.take($0) })
        } catch {
            collected.errors.append(error)
        }
    }
    depacketizer.flush { collected.take($0) }
    return collected
}

@Suite struct H264RoundTripTests {
    static let state = RTPSenderState(payloadType: 96, ssrc: 0x1234_5678, sequenceNumber: 65530, timestampOffset: 0xFFFF_FF00)

    @Test func packetsFollowRFC6184AndRebuildTheSameAccessUnits() throws {
        var packetizer = try H264Packetizer(maximumPacketSize: 500, state: Self.state)
        let stream = SyntheticStream.h264(frames: 25)
        var packets: [[UInt8]] = []
        var types: Set<UInt8> = []
        var expectedSequence = Self.state.nextSequenceNumber
        for (index, au) in stream.enumerated() {
            let aus = packetizer.packets(nalUnits: au, timestamp: UInt32(index * 3000))
            for (position, bytes) in aus.enumerated() {
                #expect(bytes.count <= 500)
                let packet = try RTPPacket(parsing: ByteView(bytes))
                #expect(packet.sequenceNumber == expectedSequence)
                expectedSequence &+= 1
                #expect(packet.timestamp == UInt32(index * 3000) &+ 0xFFFF_FF00)
                #expect(packet.ssrc == 0x1234_5678 && packet.payloadType == 96)
                #expect(packet.marker == (position == aus.count - 1))
                types.insert(packet.payload[0] & 0x1F)
            }
            packets += aus
        }
        #expect(types.isSuperset(of: [24, 28, 1]), "STAP-A, FU-A and single NAL units all used: \(types)")
        var depacketizer = H264Depacketizer()
        let collected = try depacketizeH264(packets, &depacketizer)
        #expect(collected.lost.isEmpty && collected.withheld.isEmpty && collected.errors.isEmpty)
        #expect(collected.frames.map(\.nalUnits) == stream)
        #expect(collected.frames.map(\.timestamp) == (0..<25).map { UInt32($0 * 3000) &+ 0xFFFF_FF00 })
        #expect(collected.frames.map(\.isRandomAccess) == (0..<25).map { $0 % 10 == 0 })
    }

    @Test func parameterSetsGoInBandBeforeEveryIDRThatLacksThem() throws {
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xAB]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        var packetizer = try H264Packetizer(parameterSets: [sps, pps], state: Self.state)
        let stream = SyntheticStream.h264(frames: 21, withParameterSets: false)
        let packets = stream.enumerated().flatMap { packetizer.packets(nalUnits: $1, timestamp: UInt32($0 * 3000)) }
        var depacketizer = H264Depacketizer()
        let frames = try depacketizeH264(packets, &depacketizer).frames
        #expect(frames.count == 21)
        for (index, frame) in frames.enumerated() where index % 10 == 0 {
            #expect(Array(frame.nalUnits[0]) == sps && Array(frame.nalUnits[1]) == pps)
            #expect(Array(frame.nalUnits.dropFirst(2)) == stream[index])
        }
        #expect(frames[1].nalUnits == stream[1])
    }

    @Test func everyPacketSizeFromTheSmallestWorks() throws {
        let stream = SyntheticStream.h264(frames: 3)
        for size in [15, 16, 17, 40, 1400, 9000] {
            var packetizer = try H264Packetizer(maximumPacketSize: size, state: Self.state)
            let packets = stream.enumerated().flatMap { packetizer.packets(nalUnits: $1, timestamp: UInt32($0)) }
            #expect(packets.allSatisfy { $0.count <= size })
            var depacketizer = H264Depacketizer()
            #expect(try depacketizeH264(packets, &depacketizer).frames.map(\.nalUnits) == stream)
        }
        #expect(throws: RTPPacketizerError.packetSizeTooSmall(maximumPacketSize: 14, minimum: 15)) {
            try H264Packetizer(maximumPacketSize: 14)
        }
    }

    @Test func h265RoundTripUsesAPAndFU() throws {
        var packetizer = try H265Packetizer(maximumPacketSize: 600, state: Self.state)
        let stream = SyntheticStream.h265(frames: 21)
        var types: Set<UInt8> = []
        var packets: [[UInt8]] = []
        for (index, au) in stream.enumerated() {
            let aus = packetizer.packets(nalUnits: au, timestamp: UInt32(index * 3000))
            for bytes in aus { types.insert((bytes[12] >> 1) & 0x3F) }
            packets += aus
        }
        #expect(types.isSuperset(of: [48, 49, 1]), "AP, FU and single NAL units all used: \(types)")
        var depacketizer = try H265Depacketizer()
        var collected = Collected<RTPAccessUnit>()
        for bytes in packets {
            _ = try depacketizer.depacketize(try RTPPacket(parsing: ByteView(bytes))) { collected.take($0) }
        }
        #expect(collected.lost.isEmpty && collected.withheld.isEmpty)
        #expect(collected.frames.map(\.nalUnits) == stream)
        #expect(throws: RTPPayloadError.decodingOrderNumbersUnsupported(maximumDONDifference: 2)) {
            try H265Depacketizer(maximumDONDifference: 2)
        }
    }
}

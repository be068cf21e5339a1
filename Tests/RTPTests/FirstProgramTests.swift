import Bitstream
import MediaCore
import RTP
import Testing

/// The program a new user writes first: encoded frames (as a compression session hands them out) to RTP
/// packets, and the packets back to Annex B on the other side.
@Suite struct FirstProgramTests {
    @Test func encodedFramesOverRTPAndBack() throws {
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let format = FormatDescription(codec: .h264, width: 640, height: 360, profileLevel: .h264Baseline,
                                       parameterSets: [sps, pps], nalUnitLengthSize: 4)
        let idr = [UInt8](repeating: 0x11, count: 4000)
        var frames: [EncodedFrame] = []
        for index in 0..<3 {
            let header: UInt8 = index == 0 ? 0x65 : 0x41
            let data: [UInt8] = [0, 0, 0x0F, 0xA1, header] + idr
            let time = MediaTime(value: Int64(index), timescale: 30)
            frames.append(EncodedFrame(data: data, isKeyFrame: index == 0, pts: time, dts: time,
                                       duration: MediaTime(value: 1, timescale: 30), format: format))
        }

        // Sender.
        var packetizer = try H264Packetizer(parameterSets: format.parameterSets)
        var datagrams: [[UInt8]] = []
        for frame in frames {
            try packetizer.packetize(frame) { packet in datagrams.append(Array(packet)) }
        }

        // Receiver.
        var receiver = RTPVideoReceiver(codec: .h264)
        var annexB: [UInt8] = []
        for datagram in datagrams {
            try receiver.receive(ByteView(datagram)) { event in
                if case .frame(let accessUnit) = event { annexB += accessUnit.annexB }
            }
        }
        receiver.finish { if case .frame(let accessUnit) = $0 { annexB += accessUnit.annexB } }

        let units: [[UInt8]] = [sps, pps, [0x65] + idr, [0x41] + idr, [0x41] + idr]
        var expected: [UInt8] = []
        for unit in units { expected += AnnexB.startCode + unit }
        #expect(annexB == expected)
        #expect(receiver.statistics.framesGood == 3)
        let timestamps = try datagrams.map { try RTPPacket(parsing: ByteView($0)).timestamp }
        #expect(Set(timestamps).count == 3 && timestamps.last.map { $0 &- timestamps[0] } == 6000)
    }
}

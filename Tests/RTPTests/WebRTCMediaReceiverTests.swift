import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// ``WebRTCMediaReceiver`` on a real x264 stream (FFmpeg makes it: an IDR every 20 pictures, no B-frames) packetized
/// by our H.264 packetizer: a frame whose packets never come is given up after the buffer's delay, the pictures after
/// it are withheld, a PLI goes out, and the next IDR ends the PLIs and the withholding.
@Suite struct WebRTCMediaReceiverTests {
    @Test("an unrepairable frame: NACKed, given up, PLI until the next IDR, then every picture again",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func lossBringsPLIUntilTheNextKeyFrame() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("gop20.h264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-frames:v", "60",
                                                "-c:v", "libx264", "-bf", "0", "-g", "20", "-keyint_min", "20", "-sc_threshold", "0",
                                                "-pix_fmt", "yuv420p", "-f", "h264", path])
        let stream = ByteView(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        // Access units: a new one at each slice whose first_mb_in_slice is 0 (ue(v) "1"), parameter sets joining the next.
        var units: [[ByteView]] = [], pending: [ByteView] = []
        for nal in AnnexB.nalUnits(in: stream) where nal.count > 1 {
            let type = nal[0] & 0x1F
            pending.append(nal)
            if type == 1 || type == 5, nal[1] & 0x80 != 0 {
                units.append(pending)
                pending = []
            }
        }
        #expect(units.count == 60)
        var packetizer = try H264Packetizer(maximumPacketSize: 400, state: RTPSenderState(payloadType: 96, ssrc: 7, sequenceNumber: 65500, timestampOffset: 0))
        var receiver = WebRTCMediaReceiver(tracks: [.init(kind: "video", payloadType: 96, retransmissionPayloadType: 97, clockRate: 90000)])
        var good: [Int] = [], keyFrames: [UInt32] = [], pliTimes: [Duration] = [], nacked: [UInt16] = []
        var lostPackets = Set<UInt16>()
        for (index, unit) in units.enumerated() {
            let now = Duration.milliseconds(index * 33)
            for packet in packetizer.packets(nalUnits: unit, timestamp: UInt32(index * 3000)) {
                if index == 5 {
                    lostPackets.insert(UInt16(packet[2]) << 8 | UInt16(packet[3]))
                    continue
                }
                receiver.receive(ByteView(packet), at: now) { output in
                    if case let .video(unit, _) = output {
                        good.append(Int(unit.timestamp / 3000))
                        if unit.isRandomAccess { keyFrames.append(unit.timestamp / 3000) }
                    }
                }
            }
            receiver.advance(to: now) { if case let .video(unit, _) = $0 { good.append(Int(unit.timestamp / 3000)) } }
            for feedback in receiver.feedback(at: now, senderSSRC: 1) {
                switch feedback {
                case .pictureLossIndication(_, let media):
                    #expect(media == 7)
                    pliTimes.append(now)
                case .genericNACK(let nack): nacked += nack.lostSequenceNumbers
                default: break
                }
            }
        }
        let statistics = try #require(receiver.statistics.tracks["video"])
        print("receiver: good \(good.count), PLIs at \(pliTimes), NACKed \(nacked.count) of \(lostPackets.count) lost packets, \(statistics)")
        #expect(Set(nacked) == lostPackets, "every packet of the lost frame was asked for")
        #expect(good == Array(0..<5) + Array(20..<60), "pictures before the loss, then from the next IDR on")
        #expect(keyFrames == [0, 20, 40])
        // The depacketizer sees the hole at picture 6's first packet: 6 is reported lost (5 left no packet at all) or
        // 5 and 6 both; 7…19 are withheld.
        #expect((14...15).contains(statistics.framesLost + statistics.framesWithheld), "\(statistics)")
        let afterLoss = pliTimes.filter { $0 > .milliseconds(5 * 33) }
        #expect(!afterLoss.isEmpty, "a PLI once the frame was given up")
        #expect(afterLoss.allSatisfy { $0 < .milliseconds(20 * 33) }, "no PLI once the IDR at picture 20 came")
    }
}

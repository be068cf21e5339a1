import Bitstream
import Foundation
import MediaCore
import RTP
import Testing
import TestSupport

/// ``RTPSessionReceiver``: ffmpeg's x264 stream over RTP with packets dropped, reordered and repeated — every frame
/// handed on is exactly the frame sent, frames after a loss are withheld until the next key frame, and each datagram
/// is parsed once; and two tracks put on one clock by their sender reports (RFC 3550 §6.4.1).
@Suite(.serialized)
struct RTPSessionReceiverTests {
    private static let videoTrack = RTPSessionTrack(index: 0, payloadType: 96, clockRate: 90_000, media: .video(.h264, nil))
    private static let audioFormat = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC",
                                                            audioSpecificConfig: [0x11, 0x90])
    private static let audioTrack = RTPSessionTrack(index: 1, payloadType: 97, clockRate: 48_000,
                                                    media: .audio(audioFormat, SDPMPEG4GenericParameters(aacHighBitRate: [0x11, 0x90])))

    @Test("a lossy ffmpeg stream: good frames unchanged, the rest withheld or lost until a key frame, one parse per datagram",
          .needsRealTime, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func lossyStreamIsGatedAtKeyFrames() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, _) = try await FFmpegSenderTests.encode("h264", in: directory)
        let port = TestPorts.reserve()
        let sent = try await RTPPeers.receive(port: port, whileRunning: [
            "-readrate", "8", "-i", source, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)?pkt_size=1200",
        ])
        let (reference, _) = FFmpegSenderTests.rebuild(sent, codec: .h264)
        #expect(reference.count == 50)
        let byTimestamp = Dictionary(reference.map { ($0.timestamp, $0) }, uniquingKeysWith: { first, _ in first })

        // Drop a run of packets in the middle of the third GOP (g=10), repeat one and swap two elsewhere.
        var arrivals = sent
        let dropped = Array(arrivals[(arrivals.count / 2)..<(arrivals.count / 2 + 3)])
        arrivals.removeSubrange((arrivals.count / 2)..<(arrivals.count / 2 + 3))
        arrivals.insert(arrivals[10], at: 11)
        arrivals.swapAt(20, 21)
        arrivals.insert([0x40, 0, 0], at: 5)  // not RTP: counted, the stream goes on

        var receiver = try RTPSessionReceiver(video: Self.videoTrack, audio: nil)
        var good: [(RTPAccessUnit, MediaTime)] = []
        var withheld = 0, lost = 0
        let take: (RTPSessionEvent) -> Void = { event in
            switch event {
            case let .video(unit, pts): good.append((unit, pts))
            case .videoWithheld: withheld += 1
            case .videoLost: lost += 1
            case .audio, .audioLost: Issue.record("no audio track")
            }
        }
        for (index, datagram) in arrivals.enumerated() {
            receiver.receive(ByteView(datagram), track: 0, arrival: .milliseconds(index), take)
        }
        receiver.finish(take)
        let statistics = receiver.statistics
        let video = try #require(statistics.video)

        #expect(statistics.datagramsParsed == arrivals.count - 1, "one parse per RTP datagram")
        #expect(video.packetsMalformed == 1 && video.packetsLost == dropped.count && video.packetsDuplicated == 1)
        #expect(video.packetsReordered >= 1)
        #expect(video.framesGood == good.count && video.framesWithheld == withheld && video.framesLost == lost)
        #expect(lost >= 1 && withheld >= 1, "the loss costs its frame and the frames after it until the next key frame")
        #expect(good.count + lost + withheld >= 49 && good.count < 50)
        for (unit, _) in good {
            #expect(byTimestamp[unit.timestamp]?.nalUnits == unit.nalUnits, "frame \(unit.timestamp) handed on damaged")
        }
        // After the loss, the next frame handed on (in decode order) is a key frame.
        let lostSequence = try RTPPacket(parsing: ByteView(dropped[0])).sequenceNumber
        let after = good.first { RTPSequenceNumber.distance(from: lostSequence, to: $0.0.firstSequenceNumber) > 0 }
        #expect(after?.0.isRandomAccess == true)
        // One track: its times count from its first frame, at 25 fps on 90 kHz (x264's B-frames reorder them).
        #expect(statistics.timing == .firstPackets)
        #expect(good.first?.1 == MediaTime(value: 0, timescale: 90_000))
        #expect(good.allSatisfy { $0.1.timescale == 90_000 && $0.1.value % 3600 == 0 && $0.1.value >= 0 })
        // Decode times from the SPS's reorder depth (x264 writes max_num_reorder_frames): never after the pts, increasing.
        let sets = try #require(good.first).0.nalUnits.filter { [7, 8].contains($0.first.map { $0 & 0x1F }) }.map { Array($0) }
        var timeline = RTPDecodeTimeline(format: try SDPH264Parameters(parameterSets: sets).formatDescription(),
                                         frameDuration: MediaTime(value: 3600, timescale: 90_000))
        #expect(timeline.reorderDepth > 0, "x264's default stream has B-frames")
        var decodeTimes: [MediaTime] = []
        for (_, pts) in good {
            let dts = timeline.decodeTime(presentationTime: pts)
            #expect(dts <= pts)
            decodeTimes.append(dts)
        }
        #expect(zip(decodeTimes, decodeTimes.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("sender reports put audio and video on one clock; frames wait for them, then keep the sender's offset")
    func senderReportsAlignTheTracks() throws {
        var receiver = try RTPSessionReceiver(video: Self.videoTrack, audio: Self.audioTrack)
        var events: [RTPSessionEvent] = []
        let take: (RTPSessionEvent) -> Void = { events.append($0) }
        let videoSSRC: UInt32 = 0x1111, audioSSRC: UInt32 = 0x2222
        // An IDR in one packet (RFC 6184 §5.6 single NAL unit), then a P picture.
        for (index, (type, timestamp)) in [(UInt8(0x65), UInt32(1000)), (0x41, 4000)].enumerated() {
            let packet = RTPPacket(marker: true, payloadType: 96, sequenceNumber: UInt16(index), timestamp: timestamp, ssrc: videoSSRC,
                                   payload: ByteView([type, 0x88, 0x80, 0x40]))
            receiver.receive(ByteView(packet.serialized()), track: 0, arrival: .milliseconds(index * 33), take)
        }
        // Two AAC frames, one per packet (RFC 3640 §3.2.1: AU-headers-length 16, size 13 bits, index 3 bits).
        for (index, timestamp) in [UInt32(5000), 6024].enumerated() {
            let frame: [UInt8] = [0x21, 0x10, 0x04, 0x60]
            let payload: [UInt8] = [0x00, 0x10, UInt8(frame.count >> 5), UInt8((frame.count & 0x1F) << 3)] + frame
            let packet = RTPPacket(marker: true, payloadType: 97, sequenceNumber: UInt16(100 + index), timestamp: timestamp, ssrc: audioSSRC,
                                   payload: ByteView(payload))
            receiver.receive(ByteView(packet.serialized()), track: 1, arrival: .milliseconds(10 + index * 21), take)
        }
        #expect(events.isEmpty, "frames are held until both tracks have a sender report")
        // The video's first timestamp is at NTP second 100; the audio's first is 250 ms later.
        let videoReport = RTCPSenderReport(ssrc: videoSSRC, ntpTimestamp: NTPTimestamp(seconds: 100, fraction: 0), rtpTimestamp: 1000,
                                           packetCount: 2, octetCount: 8)
        let audioReport = RTCPSenderReport(ssrc: audioSSRC, ntpTimestamp: NTPTimestamp(seconds: 100, fraction: 1 << 30), rtpTimestamp: 5000,
                                           packetCount: 2, octetCount: 8)
        receiver.receiveControl(ByteView(try RTCPCompoundPacket([.senderReport(videoReport)]).serialized()), track: 0,
                                arrival: .milliseconds(80), take)
        #expect(events.isEmpty)
        receiver.receiveControl(ByteView(try RTCPCompoundPacket([.senderReport(audioReport)]).serialized()), track: 1,
                                arrival: .milliseconds(90), take)
        receiver.finish(take)
        var videoTimes: [MediaTime] = [], audioTimes: [MediaTime] = []
        for event in events {
            switch event {
            case let .video(_, pts): videoTimes.append(pts)
            case let .audio(_, pts): audioTimes.append(pts)
            default: Issue.record("unexpected \(event)")
            }
        }
        #expect(videoTimes == [MediaTime(value: 0, timescale: 90_000), MediaTime(value: 3000, timescale: 90_000)])
        #expect(audioTimes == [MediaTime(value: 12_000, timescale: 48_000), MediaTime(value: 13_024, timescale: 48_000)])
        let statistics = receiver.statistics
        #expect(statistics.timing == .senderReports)
        #expect(abs((statistics.audioVideoStartOffset ?? 0) - 0.25) < 1e-6)
        #expect(statistics.audio?.framesGood == 2 && statistics.video?.framesGood == 2)
    }

    @Test("without sender reports, frames are released after the hold, each track counted from its first frame")
    func holdEndsWithoutSenderReports() throws {
        var configuration = RTPSessionReceiver.Configuration()
        configuration.synchronizationHold = .milliseconds(500)
        var receiver = try RTPSessionReceiver(video: Self.videoTrack, audio: Self.audioTrack, configuration: configuration)
        var count = 0
        for index in 0..<40 {
            let packet = RTPPacket(marker: true, payloadType: 96, sequenceNumber: UInt16(index), timestamp: UInt32(index * 3000), ssrc: 7,
                                   payload: ByteView([index == 0 ? 0x65 : 0x41, 0x88, 0x80, 0x40]))
            receiver.receive(ByteView(packet.serialized()), track: 0, arrival: .milliseconds(index * 33)) { _ in count += 1 }
        }
        #expect(receiver.statistics.timing == .firstPackets)
        #expect(count >= 38, "released once 500 ms had passed")
    }
}

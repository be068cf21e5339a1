import Bitstream
import Foundation
import MediaCore
import RTP
import Testing
import TestSupport

extension MediaTime {
    /// The seconds of a time (a name that does not meet `Duration.seconds` in overload resolution).
    static func seconds(of time: MediaTime) -> Double { time.seconds }
}

/// ffmpeg sends H.264 and AAC to two port pairs, with its RTCP sender reports: we read its RTCP, count its
/// RTP, and put both streams on one clock. The skew it bounds comes from ffmpeg's own pacing (`-re`) and clock: on
/// a machine shared with the rest of a parallel run it exceeds a frame, so it runs alone (``RealTimeSuites``).
@Suite(.serialized, .runsAlone) struct StreamSynchronizerPeerTests {
    /// The fixed RTP header fields the test needs (RFC 3550 §5.1), read here so that this test stands alone.
    struct Header {
        var sequenceNumber: UInt16
        var timestamp: UInt32
        var ssrc: UInt32
        init?(_ bytes: [UInt8]) {
            let view = ByteView(bytes)
            guard bytes.count >= 12, bytes[0] >> 6 == 2, let sequence = view.getInteger(at: 2, as: UInt16.self),
                  let timestamp = view.getInteger(at: 4, as: UInt32.self), let ssrc = view.getInteger(at: 8, as: UInt32.self) else { return nil }
            self.sequenceNumber = sequence
            self.timestamp = timestamp
            self.ssrc = ssrc
        }
    }

    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func audioAndVideoLineUpThroughFFmpegsSenderReports() async throws {
        let port = TestPorts.reserve(4)
        let collector = try DatagramCollector(ports: [port, port + 1, port + 2, port + 3])
        let sender = try PeerProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-t", "6", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
            "-re", "-t", "6", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-map", "0:v", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "0", "-tune", "zerolatency", "-f", "rtp", "-rtpflags", "send_bye", "rtp://127.0.0.1:\(port)",
            "-map", "1:a", "-c:a", "aac", "-f", "rtp", "-rtpflags", "send_bye", "rtp://127.0.0.1:\(port + 2)",
        ])
        defer { sender.stop() }
        @Sendable func goodbyes(_ collector: DatagramCollector) -> Int {
            collector.datagrams.filter { datagram in
                datagram.port % 2 == 1 && ((try? RTCPCompoundPacket(parsing: datagram.bytes))?.packets.contains {
                    if case .goodbye = $0 { return true } else { return false }
                } ?? false)
            }.count
        }
        try await collector.collect(seconds: 15) { goodbyes($0) >= 2 }
        let log = sender.stop()

        // RTCP: every datagram ffmpeg sent parses; its SRs name the RTP streams' SSRCs.
        var compounds: [(port: UInt16, packet: RTCPCompoundPacket, arrival: Duration)] = []
        for datagram in collector.datagrams where datagram.port % 2 == 1 {
            compounds.append((datagram.port, try RTCPCompoundPacket(parsing: datagram.bytes), datagram.arrival))
        }
        let videoPackets = collector.datagrams.filter { $0.port == port }
        let video = videoPackets.compactMap { Header($0.bytes) }
        let audioPackets = collector.datagrams.filter { $0.port == port + 2 }
        let videoSSRC = try #require(video.first?.ssrc, "no video RTP; ffmpeg: \(log)")
        let audioSSRC = try #require(audioPackets.first.flatMap { Header($0.bytes) }?.ssrc, "no audio RTP")
        let videoReports = compounds.filter { $0.port == port + 1 }.flatMap { $0.packet.senderReports }
        let audioReports = compounds.filter { $0.port == port + 3 }.flatMap { $0.packet.senderReports }
        #expect(videoReports.count >= 2 && audioReports.count >= 2, "an SR at the start, one at the end (with the BYE)")
        #expect(videoReports.allSatisfy { $0.ssrc == videoSSRC } && audioReports.allSatisfy { $0.ssrc == audioSSRC })
        // ffmpeg 5.1 sends SR alone (no SDES), then SR + BYE at the end (`-rtpflags send_bye`).
        #expect(compounds.allSatisfy { if case .senderReport = $0.packet.packets.first { return true } else { return false } })
        #expect(compounds.contains { $0.packet.packets.contains(.goodbye(RTCPGoodbye(ssrcs: [videoSSRC]))) })
        // The last SR's packet count is what we received (loopback loses nothing).
        #expect(videoReports.last?.packetCount == UInt32(videoPackets.count))
        #expect(audioReports.last?.packetCount == UInt32(audioPackets.count))
        // Each of our compound packets parses back from what we write.
        for compound in compounds { #expect(try RTCPCompoundPacket(parsing: compound.packet.serialized()) == compound.packet) }

        // Reception statistics over the real stream: nothing lost, reordered or duplicated.
        var statistics = ReceptionStatistics(ssrc: videoSSRC, clockRate: 90_000)
        for datagram in videoPackets {
            let header = try #require(Header(datagram.bytes))
            statistics.record(sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, arrival: datagram.arrival)
        }
        #expect(statistics.packetsReceived == UInt64(videoPackets.count - 1), "all but the first (probation)")
        #expect(statistics.cumulativeLost == 0 && statistics.reorderedPackets == 0 && statistics.duplicatePackets == 0)

        // One clock: the first packet of each stream carries media time 0 of its lavfi source.
        var sync = StreamSynchronizer()
        sync.addStream(ssrc: videoSSRC, clockRate: 90_000)
        sync.addStream(ssrc: audioSSRC, clockRate: 48_000)
        let firstVideo = try #require(Header(videoPackets[0].bytes))
        let firstAudio = try #require(Header(audioPackets[0].bytes))
        #expect(sync.presentationTime(ssrc: videoSSRC, rtpTimestamp: firstVideo.timestamp) == .awaitingSenderReport)
        for compound in compounds.prefix(while: { $0.arrival <= compounds[1].arrival }) { sync.record(compound.packet) }
        guard case let .placed(videoTime) = sync.presentationTime(ssrc: videoSSRC, rtpTimestamp: firstVideo.timestamp),
              case let .placed(audioTime) = sync.presentationTime(ssrc: audioSSRC, rtpTimestamp: firstAudio.timestamp) else {
            Issue.record("not placed after both first SRs"); return
        }
        let skew = abs(MediaTime.seconds(of: videoTime - audioTime))
        #expect(skew < 0.040, "audio and video start \(skew * 1000) ms apart on the sender's clock: more than one frame")
        // Later reports keep both clocks where the first put them (no drift through the mapping).
        var late = sync
        for compound in compounds { late.record(compound.packet) }
        for (ssrc, first, rate) in [(videoSSRC, firstVideo, 90_000.0), (audioSSRC, firstAudio, 48_000.0)] {
            let lastPacket = try #require((ssrc == videoSSRC ? videoPackets : audioPackets).last.flatMap { Header($0.bytes) })
            guard case let .placed(early) = sync.presentationTime(ssrc: ssrc, rtpTimestamp: lastPacket.timestamp),
                  case let .placed(later) = late.presentationTime(ssrc: ssrc, rtpTimestamp: lastPacket.timestamp) else {
                Issue.record("not placed"); return
            }
            #expect(abs(MediaTime.seconds(of: early - later)) < 0.010, "the mappings of the first and the last SR disagree")
            let mediaSeconds = Double(lastPacket.timestamp &- first.timestamp) / rate
            #expect(mediaSeconds > 4 && mediaSeconds < 7)
        }
    }
}

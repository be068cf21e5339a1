import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// ffmpeg's x264 stream over RTP with 1 % and 5 % of the packets dropped, some reordered and some repeated,
/// in-process: nothing crashes, every frame is handed on whole or reported, a frame handed on is exactly the
/// frame sent, and what is handed on decodes with `ffmpeg -err_detect explode`.
@Suite(.needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct LossTests {
    @Test(arguments: [(0.01, UInt64(11)), (0.05, 12), (0.05, 13)])
    func damagedFramesAreNeverHandedOnAsGood(lossRate: Double, seed: UInt64) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, _) = try await FFmpegSenderTests.encode("h264", in: directory)
        let port = TestPorts.reserve()
        let sent = try await RTPPeers.receive(port: port, whileRunning: [
            "-readrate", "8", "-i", source, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)?pkt_size=1200",
        ])
        // The frames as sent, and which packets each used.
        let (reference, _) = FFmpegSenderTests.rebuild(sent, codec: .h264)
        #expect(reference.count == 50)
        let byTimestamp = Dictionary(reference.map { ($0.timestamp, $0) }, uniquingKeysWith: { first, _ in first })

        var generator = SplitMix64(seed: seed)
        var arrivals: [[UInt8]] = []
        var dropped: Set<UInt16> = []
        for datagram in sent {
            let sequence = UInt16(datagram[2]) << 8 | UInt16(datagram[3])
            if Double.random(in: 0..<1, using: &generator) < lossRate { dropped.insert(sequence); continue }
            arrivals.append(datagram)
            if Double.random(in: 0..<1, using: &generator) < 0.02 { arrivals.append(datagram) }
        }
        for index in stride(from: 1, to: arrivals.count, by: 1) where Double.random(in: 0..<1, using: &generator) < 0.03 {
            arrivals.swapAt(index - 1, index)
        }
        // Garbage datagrams too: typed errors, the stream goes on.
        arrivals.insert([0x40, 0, 0], at: arrivals.count / 2)

        var receiver = RTPVideoReceiver(codec: .h264, reorderWindow: 16)
        var good: [RTPAccessUnit] = []
        var reported: Set<UInt32> = []
        let take: (RTPFrameEvent<RTPAccessUnit>) -> Void = { event in
            switch event {
            case .frame(let unit): good.append(unit)
            case .lost(let loss), .withheld(let loss): reported.insert(loss.timestamp)
            }
        }
        var headerErrors = 0
        for datagram in arrivals {
            do { try receiver.receive(ByteView(datagram), take) } catch { headerErrors += 1 }
        }
        receiver.finish(take)
        #expect(headerErrors == 1)
        #expect(!dropped.isEmpty && receiver.statistics.packets.lost == dropped.count)

        // Handed on means whole and unchanged.
        for unit in good {
            #expect(byTimestamp[unit.timestamp]?.nalUnits == unit.nalUnits, "frame \(unit.timestamp) handed on damaged")
        }
        // Every frame sent is handed on, reported, or lost with all its packets (inside a reported gap).
        for frame in reference where !good.contains(where: { $0.timestamp == frame.timestamp })
            && !reported.contains(frame.timestamp) {
            var sequence = frame.firstSequenceNumber
            var allDropped = true
            while true {
                if !dropped.contains(sequence) { allDropped = false }
                if sequence == frame.lastSequenceNumber { break }
                sequence &+= 1
            }
            #expect(allDropped, "frame \(frame.timestamp) neither handed on nor reported")
        }
        #expect(good.count > 0 && good.count < 50)

        let file = directory.appendingPathComponent("received.h264")
        try Data(good.flatMap(\.annexB)).write(to: file)
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-err_detect", "explode",
                                          "-i", file.path, "-f", "null", "-"])
    }
}

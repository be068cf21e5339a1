#if FFmpeg
// These tests encode with our own `stream`/`serve`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// `streamkit stream … rtp://` through a relay that drops, reorders and duplicates, into `streamkit receive`:
/// no crash, every frame is reported good or lost/withheld, and what receive writes decodes with
/// `ffmpeg -err_detect explode` — no damaged frame is handed on as good. Each case has ports of its own (``TestPorts``).
@Suite("loss, reordering, duplication", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct LossProofTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var damage: LossyRelay.Damage
        var description: String { name }
    }

    static let cases = [
        Case(name: "1 % loss", damage: LossyRelay.Damage(loss: 0.01)),
        Case(name: "5 % loss", damage: LossyRelay.Damage(loss: 0.05)),
        Case(name: "reorder and duplicate", damage: LossyRelay.Damage(reorder: 0.05, duplicate: 0.05)),
    ]

    @Test("every frame good or reported; nothing damaged handed on", arguments: cases)
    func survives(_ test: Case) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let relayPort = TestPorts.reserve(6), receivePort = relayPort + 4
        let senderSDP = directory.appendingPathComponent("sender.sdp").path
        let receiverSDP = directory.appendingPathComponent("receiver.sdp").path
        let output = directory.appendingPathComponent("received.h264").path
        let common = ["testsrc", "rtp://127.0.0.1:\(relayPort)", "--size", "320x240", "--gop", "15", "--mtu", "500", "--bitrate", "600k"]
        try await Streamkit.run(["stream"] + common + ["--sdp", senderSDP, "--frames", "1"], in: directory)
        // The receiver listens where the relay forwards to: the SDP with the relay's ports replaced.
        let text = try String(contentsOfFile: senderSDP, encoding: .utf8)
        try text.replacingOccurrences(of: "m=video \(relayPort)", with: "m=video \(receivePort)")
            .write(toFile: receiverSDP, atomically: true, encoding: .utf8)
        var damage = test.damage
        damage.damagedPorts = [relayPort]
        let relay = try LossyRelay(routes: [(relayPort, receivePort), (relayPort + 1, receivePort + 1)], damage: damage)
        let receiver = try Streamkit.start(["receive", receiverSDP, "-o", output, "--idle", "3", "--duration", "30"], logsIn: directory)
        #expect(await Readiness.waitForUDP(port: receivePort), "\(receiver.logs)")
        try await Streamkit.run(["stream"] + common + ["--sdp", directory.appendingPathComponent("again.sdp").path, "--frames", "150"],
                                in: directory)
        await receiver.waitForExit(seconds: 15)
        await receiver.stop()
        await relay.stop()
        let counts = relay.statistics
        let report = ReceiveReport(receiver.standardError)
        #expect(receiver.status == 0, "\(receiver.logs)")
        #expect(report.videoGood > 0 && report.videoGood <= 150)
        if damage.loss > 0 {
            #expect(counts.dropped > 0)
            #expect(report.videoLost + report.videoWithheld > 0, "\(counts.dropped) packets dropped, yet no frame reported\n\(receiver.logs)")
            #expect(report.lossLines == report.videoLost + report.videoWithheld, "each lost or withheld frame has its line")
        } else {
            #expect(report.videoGood == 150, "reordering and duplicates lose nothing: \(receiver.logs)")
            #expect(report.packetsDuplicated > 0 && report.packetsReordered > 0, "\(receiver.logs)")
        }
        // What was handed on is whole: ffmpeg decodes every frame without an error.
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", output, "-f", "null", "-"])
        #expect(try await Streamkit.frameHashes(decoding: output).count == report.videoGood)
    }
}
#endif

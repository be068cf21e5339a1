#if SRT
import Foundation
import POSIX
import Synchronization
import Testing
import TestSupport
import Transport

/// Our SRT sockets against SRT peers nobody here wrote: the SRT project's own `srt-live-transmit` and FFmpeg's
/// `libsrt` protocol, on loopback, each test on ports of its own. The payload is an MPEG-TS stream ffmpeg wrote, sent
/// as 1316-byte packets (seven TS packets), so what arrives can be compared byte for byte and read by ffprobe.
@Suite("SRT sockets against srt-live-transmit and ffmpeg", .needsRealTime)
struct SRTPeerTests {
    /// A short MPEG-TS stream (x264, 2 s at 25 fps) cut into 1316-byte packets.
    static func transportStream(in directory: URL) throws -> (packets: [[UInt8]], file: URL) {
        let file = directory.appendingPathComponent("source.ts")
        _ = try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25",
                                              "-t", "2", "-c:v", "libx264", "-g", "25", "-f", "mpegts", "-y", file.path])
        let bytes = [UInt8](try Data(contentsOf: file))
        let packets = stride(from: 0, to: bytes.count, by: 1316).map { Array(bytes[$0..<min($0 + 1316, bytes.count)]) }
        return (packets, file)
    }

    /// Connects (blocking libsrt calls, on a thread of their own), retrying while the peer's listener comes up.
    static func connect(_ url: String, seconds: Double = 10) async throws -> SRTSocket {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            do {
                return try await OffPool.run { try SRTSocket.connect(to: url) }
            } catch let error as SRTError {
                guard case .connectionFailed = error, ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Where two byte strings first differ (`nil` when equal), for a failure message that does not print megabytes.
    static func firstDifference(_ received: [UInt8], _ expected: [UInt8]) -> String? {
        if let index = zip(received, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "byte \(index) differs"
        }
        return received.count == expected.count ? nil : "\(received.count) bytes instead of \(expected.count)"
    }

    /// Receives on `socket` until the peer closes or `count` bytes came.
    static func receiveAll(_ socket: SRTSocket, atLeast count: Int) async throws -> [UInt8] {
        try await OffPool.run {
            var received: [UInt8] = []
            while received.count < count, let packet = try socket.receive() { received += packet }
            return received
        }
    }

    @Test("Our caller sends to srt-live-transmit's listener (SRT in, UDP out): every packet arrives whole, in order")
    func callerToSRTLiveTransmit() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit", "ffmpeg"))
        let directory = try ExternalTool.temporaryDirectory()
        let (packets, _) = try Self.transportStream(in: directory)
        let ports = TestPorts.reserve(2)
        let udp = try UDPDatagramCollector(port: ports + 1)
        let peer = try PeerProcess("srt-live-transmit", ["-q", "srt://127.0.0.1:\(ports)?mode=listener", "udp://127.0.0.1:\(ports + 1)"],
                                   logsIn: directory)
        defer { peer.terminate() }
        let socket = try await Self.connect("srt://127.0.0.1:\(ports)?streamid=live/cam&latency=200000")
        let receiving = Task { try await OffPool.run { udp.waitFor(count: packets.count, seconds: 10) } }
        for packet in packets { try socket.send(packet) }
        let acknowledged = ContinuousClock.now + .seconds(5)
        while socket.unacknowledgedBytes > 0, ContinuousClock.now < acknowledged { try await Task.sleep(for: .milliseconds(10)) }
        let statistics = try #require(socket.statistics())
        let datagrams = try await receiving.value
        try await OffPool.run { socket.close() }
        #expect(datagrams.count == packets.count, "\(peer.logs)")
        #expect(Self.firstDifference(Array(datagrams.joined()), Array(packets.joined())) == nil)
        #expect(datagrams.map(\.count) == packets.map(\.count), "each SRT packet is one datagram")
        #expect(statistics.packetsSent >= packets.count, "\(statistics)")
        #expect(statistics.bytesSent >= packets.reduce(0) { $0 + $1.count }, "\(statistics)")
    }

    @Test("Through 5 % loss and reordering both ways at 400 ms latency, every packet arrives, the last ones included")
    func lossyRelay() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit"))
        let directory = try ExternalTool.temporaryDirectory()
        let ports = TestPorts.reserve(3)
        let udp = try UDPDatagramCollector(port: ports + 2)
        let peer = try PeerProcess("srt-live-transmit", ["-q", "srt://127.0.0.1:\(ports)?mode=listener&latency=400",
                                                         "udp://127.0.0.1:\(ports + 2)"], logsIn: directory)
        defer { peer.terminate() }
        let relay = try TwoWayLossyRelay(port: ports + 1, server: ports, loss: 0.05, reorder: 0.05)
        defer { relay.stop() }
        let socket = try await Self.connect("srt://127.0.0.1:\(ports + 1)?latency=400000", seconds: 15)
        let packets = (0..<300).map { index in (0..<1316).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) } }
        let receiving = Task { try await OffPool.run { udp.waitFor(count: packets.count, seconds: 20) } }
        for packet in packets {
            try socket.send(packet)
            try await Task.sleep(for: .milliseconds(10))  // 1 Mbit/s for 3 s
        }
        // The caller ends at once after its last packet: closing waits for the acknowledgements and the latency.
        let statistics = try #require(socket.statistics())
        try await OffPool.run { socket.close() }
        let datagrams = try await receiving.value
        let counts = relay.current
        #expect(datagrams.count == packets.count, "\(datagrams.count) of \(packets.count); \(statistics); relay \(counts)")
        #expect(Self.firstDifference(Array(datagrams.joined()), Array(packets.joined())) == nil)
        #expect(counts.forwardDataDropped > 0 && counts.backwardDropped > 0 && counts.reordered > 0, "\(counts)")
        // Every data packet the relay dropped on the way had to be sent again for all of them to arrive; libsrt's
        // counters (read before the last acknowledgements) must show at least those before the end.
        #expect(statistics.packetsRetransmitted > 0, "\(statistics)")
        #expect(statistics.packetsReportedLost > 0, "\(statistics)")
        print("SRT through 5 % loss both ways: \(datagrams.count)/\(packets.count) packets; relay dropped \(counts.forwardDataDropped) "
              + "data packets forward, \(counts.backwardDropped) datagrams back, reordered \(counts.reordered); ours: \(statistics)")
    }

    @Test("srt-live-transmit calls our listener (UDP in, SRT out): every datagram arrives as one packet, in order, with its stream id")
    func srtLiveTransmitToListener() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit", "ffmpeg"))
        let directory = try ExternalTool.temporaryDirectory()
        let (packets, _) = try Self.transportStream(in: directory)
        let ports = TestPorts.reserve(2)
        let listener = try SRTListener(url: "srt://127.0.0.1:\(ports)")
        defer { listener.close() }
        let peer = try PeerProcess("srt-live-transmit", [
            "-q", "udp://127.0.0.1:\(ports + 1)", "srt://127.0.0.1:\(ports)?streamid=#!::r=live/in,m=publish",
        ], logsIn: directory)
        defer { peer.terminate() }
        let socket = try await OffPool.run { try listener.accept() }
        defer { socket.closeNow() }
        #expect(socket.streamID == "#!::r=live/in,m=publish")
        #expect(socket.peer?.description.hasPrefix("127.0.0.1:") == true)
        let udp = try UDPDatagramSender(port: ports + 1)
        let receiving = Task { try await Self.receiveAll(socket, atLeast: packets.reduce(0) { $0 + $1.count }) }
        for packet in packets {
            udp.send(packet)
            try await Task.sleep(for: .milliseconds(2))
        }
        let received = try await receiving.value
        #expect(Self.firstDifference(received, Array(packets.joined())) == nil, "\(received.count) bytes; \(peer.logs)")
    }

    @Test("ffmpeg publishes MPEG-TS to our listener; ffprobe reads every frame of what we received")
    func ffmpegCallerToListener() async throws {
        try #require(ExternalTool.isRunnable("ffmpeg", "ffprobe"))
        let directory = try ExternalTool.temporaryDirectory()
        let (_, file) = try Self.transportStream(in: directory)
        let port = TestPorts.reserve()
        // tsbpd=0: packets are handed on as they complete, so the last ones are not lost when ffmpeg closes at once
        // (ffmpeg lingers for acknowledgements only; a receiver holding packets for its latency drops those).
        let listener = try SRTListener(url: "srt://127.0.0.1:\(port)?latency=200000&tsbpd=0")
        defer { listener.close() }
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-hide_banner", "-v", "error", "-re", "-i", file.path, "-c", "copy", "-f", "mpegts",
            "srt://127.0.0.1:\(port)?streamid=live/ffmpeg&pkt_size=1316",
        ], logsIn: directory)
        defer { ffmpeg.terminate() }
        let socket = try await OffPool.run { try listener.accept() }
        defer { socket.closeNow() }
        #expect(socket.streamID == "live/ffmpeg")
        let received = try await Self.receiveAll(socket, atLeast: Int.max)
        #expect(await ffmpeg.exitStatus(within: 10) == 0, "\(ffmpeg.logs)")
        let output = directory.appendingPathComponent("received.ts")
        try Data(received).write(to: output)
        let frames = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                        "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", output.path])
        #expect(frames.text.split(whereSeparator: \.isNewline).first == "50", "\(received.count) bytes")
    }

    @Test("ffmpeg listens and our caller sends: ffmpeg's recording has every frame; closing waits for the acknowledgements")
    func callerToFFmpegListener() async throws {
        try #require(ExternalTool.isRunnable("ffmpeg", "ffprobe"))
        let directory = try ExternalTool.temporaryDirectory()
        let (packets, _) = try Self.transportStream(in: directory)
        let port = TestPorts.reserve()
        let output = directory.appendingPathComponent("ffmpeg.ts")
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-hide_banner", "-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=listener&latency=200000", "-c", "copy",
            "-f", "mpegts", "-y", output.path,
        ], logsIn: directory)
        defer { ffmpeg.terminate() }
        let socket = try await Self.connect("srt://127.0.0.1:\(port)?latency=200000")
        // At the stream's own pace (2 s), as a live source sends: ffmpeg probes the input while it arrives.
        for packet in packets {
            try socket.send(packet)
            try await Task.sleep(for: .milliseconds(2000 / packets.count))
        }
        try await OffPool.run { socket.close() }
        #expect(await ffmpeg.exitStatus(within: 10) == 0, "\(ffmpeg.logs)")
        let frames = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                        "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", output.path])
        #expect(frames.text.split(whereSeparator: \.isNewline).first == "50")
    }

    @Test("A wrong passphrase fails on both sides with the reason; the right one connects and the bytes arrive")
    func passphrases() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit"))
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let peer = try PeerProcess("srt-live-transmit", [
            "-a", "no", "srt://127.0.0.1:\(port)?mode=listener&passphrase=the-right-passphrase", "file://con",
        ], logsIn: directory)
        defer { peer.terminate() }
        // Our caller with the wrong passphrase: refused, and the reason says so.
        var refusal: SRTError?
        let deadline = ContinuousClock.now + .seconds(10)
        repeat {
            do {
                let socket = try await OffPool.run { try SRTSocket.connect(to: "srt://127.0.0.1:\(port)?passphrase=a-wrong-passphrase") }
                socket.closeNow()
                Issue.record("a wrong passphrase connected")
                return
            } catch let error as SRTError {
                refusal = error
                if case .connectionFailed = error { try await Task.sleep(for: .milliseconds(100)) } else { break }
            }
        } while ContinuousClock.now < deadline
        #expect(refusal == .rejected(.badSecret), "\(String(describing: refusal))")
        #expect(refusal?.description.contains("wrong passphrase") == true)

        // Our listener with a passphrase, srt-live-transmit calling with another: our accept sees no one, and the
        // peer logs the rejection.
        let listenPort = TestPorts.reserve(2)
        let listener = try SRTListener(url: "srt://127.0.0.1:\(listenPort)?passphrase=the-right-passphrase")
        defer { listener.close() }
        let wrongCaller = try PeerProcess("srt-live-transmit", [
            "-a", "no", "udp://127.0.0.1:\(listenPort + 1)", "srt://127.0.0.1:\(listenPort)?passphrase=a-wrong-passphrase",
        ], logsIn: directory)
        defer { wrongCaller.terminate() }
        let accepting = Task { try await OffPool.run { try listener.accept() } }
        let deadline2 = ContinuousClock.now + .seconds(10)
        while !wrongCaller.standardError.contains("Incorrect passphrase"), ContinuousClock.now < deadline2 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(wrongCaller.standardError.contains("Incorrect passphrase"), "\(wrongCaller.logs)")
        // The right passphrase connects to the same listener.
        let good = try await Self.connect("srt://127.0.0.1:\(listenPort)?passphrase=the-right-passphrase")
        let accepted = try await accepting.value
        try good.send(Array("sealed".utf8))
        let packet = try await OffPool.run { try accepted.receive() }
        #expect(packet == Array("sealed".utf8))
        good.closeNow()
        accepted.closeNow()
    }

    @Test("The listener's policy refuses a stream id with a reason the caller receives; other callers are served")
    func admissionPolicy() async throws {
        let port = TestPorts.reserve()
        let listener = try SRTListener(url: "srt://127.0.0.1:\(port)") { request in
            guard let text = request.streamID, let id = try? SRTStreamID(parsing: text) else { return .reject(.badRequest) }
            if id.resource == "live/secret" { return .reject(.forbidden) }
            if id.resource == "live/locked" { return .acceptEncrypted(passphrase: "per-stream-passphrase") }
            return .accept
        }
        defer { listener.close() }
        await #expect(throws: SRTError.rejected(.forbidden)) {
            _ = try await OffPool.run { try SRTSocket.connect(to: "srt://127.0.0.1:\(port)?streamid=%23%21%3A%3Ar%3Dlive%2Fsecret") }
        }
        await #expect(throws: SRTError.rejected(.badRequest)) {
            _ = try await OffPool.run { try SRTSocket.connect(to: "srt://127.0.0.1:\(port)") }
        }
        // A stream with its own passphrase: without it refused, with it let in.
        await #expect(throws: SRTError.self) {
            _ = try await OffPool.run { try SRTSocket.connect(to: "srt://127.0.0.1:\(port)?streamid=live/locked") }
        }
        let accepting = Task { try await OffPool.run { try listener.accept() } }
        let locked = try await OffPool.run {
            try SRTSocket.connect(to: "srt://127.0.0.1:\(port)?streamid=live/locked&passphrase=per-stream-passphrase")
        }
        let accepted = try await accepting.value
        #expect(accepted.streamID == "live/locked")
        locked.closeNow()
        accepted.closeNow()
    }

    @Test("Several callers of one listener: one vanishing (killed) leaves the others' streams whole")
    func callerVanishes() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit"))
        let directory = try ExternalTool.temporaryDirectory()
        let ports = TestPorts.reserve(3)
        let listener = try SRTListener(url: "srt://127.0.0.1:\(ports)")
        defer { listener.close() }
        // A peer that calls and then is killed mid-stream.
        let doomed = try PeerProcess("srt-live-transmit", ["-q", "udp://127.0.0.1:\(ports + 1)", "srt://127.0.0.1:\(ports)?streamid=doomed"],
                                     logsIn: directory)
        defer { doomed.terminate() }
        let first = try await OffPool.run { try listener.accept() }
        defer { first.closeNow() }
        // Our own caller beside it.
        let acceptingSecond = Task { try await OffPool.run { try listener.accept() } }
        let caller = try await Self.connect("srt://127.0.0.1:\(ports)?streamid=survivor")
        let second = try await acceptingSecond.value
        defer { second.closeNow() }
        let (doomedSocket, survivorSocket) = first.streamID == "doomed" ? (first, second) : (second, first)
        let udp = try UDPDatagramSender(port: ports + 1)
        udp.send(Array(repeating: 7, count: 100))
        #expect(try await OffPool.run { try doomedSocket.receive() }?.count == 100)
        let receiving = Task { try await Self.receiveAll(survivorSocket, atLeast: 200 * 1316) }
        for index in 0..<200 {
            try caller.send([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 1316))
            if index == 50 { doomed.vanish() }
            try await Task.sleep(for: .milliseconds(1))
        }
        let received = try await receiving.value
        #expect(Self.firstDifference(received, (0..<200).flatMap { [UInt8](repeating: UInt8(truncatingIfNeeded: $0), count: 1316) }) == nil)
        caller.closeNow()
    }

    @Test("Rendezvous with srt-live-transmit: both sides connect to each other and the bytes arrive")
    func rendezvous() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit"))
        let directory = try ExternalTool.temporaryDirectory()
        let ports = TestPorts.reserve(3)
        // srt-live-transmit binds ports+1 and calls ports; we bind ports and call ports+1.
        let peer = try PeerProcess("srt-live-transmit", [
            "-q", "udp://127.0.0.1:\(ports + 2)", "srt://127.0.0.1:\(ports)?mode=rendezvous&port=\(ports + 1)&adapter=127.0.0.1",
        ], logsIn: directory)
        defer { peer.terminate() }
        let url = try SRTURL("srt://127.0.0.1:\(ports + 1)?mode=rendezvous&connect_timeout=3000")
        let socket = try await OffPool.run { try SRTSocket.connect(to: url, localPort: ports) }
        defer { socket.closeNow() }
        let udp = try UDPDatagramSender(port: ports + 2)
        let receiving = Task { try await Self.receiveAll(socket, atLeast: 20 * 1000) }
        for index in 0..<20 {
            udp.send([UInt8](repeating: UInt8(index), count: 1000))
            try await Task.sleep(for: .milliseconds(5))
        }
        let received = try await receiving.value
        #expect(Self.firstDifference(received, (0..<20).flatMap { [UInt8](repeating: UInt8($0), count: 1000) }) == nil, "\(peer.logs)")
    }
}

/// A UDP socket that sends datagrams to one port on 127.0.0.1 (the input of `srt-live-transmit udp://…`).
final class UDPDatagramSender: Sendable {
    private let descriptor: Int32
    private let port: UInt16

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        self.port = port
    }

    func send(_ bytes: [UInt8]) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    deinit { close(descriptor) }
}
#endif

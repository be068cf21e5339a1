#if SRT
import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// SRT in the live pipeline against FFmpeg's `srt://`: a pipeline publishes to ffmpeg listening, ingests what ffmpeg
/// publishes, and serves ffmpeg pullers — the pictures and AAC frames that arrive are compared, byte for byte, with
/// the MPEG-TS recording they came from (read with ``TSMediaReader``).
@Suite("SRT in the live pipeline against ffmpeg", .needsRealTime)
struct SRTLiveProofTests {
    /// A 2 s recording (50 pictures at 25 fps with AAC) to send.
    static func recording(in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("source.ts").path
        let report = try await recordTS(to: path, frames: 50)
        try #require(report.destinations.first?.failure == nil)
        return path
    }

    /// Waits until ffmpeg reports it listens (it prints nothing; the UDP port shows in /proc/net/udp).
    static func waitForFFmpeg(port: UInt16) async throws {
        try #require(await Readiness.waitForUDP(port: port, seconds: 15), "ffmpeg does not listen on \(port)")
    }

    @Test("A pipeline publishes over SRT to ffmpeg listening: ffmpeg's recording has every picture and AAC frame, unchanged")
    func publishToFFmpeg() async throws {
        try #require(ExternalTool.isRunnable("ffmpeg"))
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let port = TestPorts.reserve()
        let output = directory.appendingPathComponent("ffmpeg.ts").path
        let ffmpeg = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=listener&tsbpd=0",
                                                "-c", "copy", "-f", "mpegts", "-y", output], logsIn: directory)
        defer { ffmpeg.terminate() }
        try await Self.waitForFFmpeg(port: port)
        let pipeline = LivePipeline(source: TSFileSource(path: source, pacing: .realTime))
        let destination = try SRTDestination(url: "srt://127.0.0.1:\(port)?streamid=live/test&latency=200000")
        pipeline.add(destination)
        let report = try await pipeline.run()
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        #expect(await ffmpeg.exitStatus(within: 15) == 0, "\(ffmpeg.logs)")
        let sent = try readTS(source), received = try readTS(output)
        #expect(received.issues.isEmpty, "\(received.issues)")
        #expect(received.pictures.map(\.data) == sent.pictures.map(\.data), "\(received.pictures.count) of \(sent.pictures.count) pictures")
        #expect(received.pictures.map(\.pts) == sent.pictures.map(\.pts))
        #expect(received.audio.map(\.data) == sent.audio.map(\.data), "\(received.audio.count) of \(sent.audio.count) AAC frames")
    }

    @Test("ffmpeg publishes to a pipeline's SRT listener (an ingest): the recording equals what ffmpeg sent")
    func ingestFromFFmpeg() async throws {
        try #require(ExternalTool.isRunnable("ffmpeg"))
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let port = TestPorts.reserve()
        let output = directory.appendingPathComponent("ingest.ts").path
        let ingest = SRTSource(url: "srt://127.0.0.1:\(port)?mode=listener&tsbpd=0&passphrase=ingest-passphrase")
        let pipeline = LivePipeline(source: ingest)
        pipeline.add(TSFileDestination(path: output), options: .recording())
        let running = Task { try await pipeline.run() }
        try #require(await Readiness.waitForUDP(port: port, seconds: 15))
        let ffmpeg = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-re", "-i", source, "-c", "copy", "-f", "mpegts",
                                                "srt://127.0.0.1:\(port)?passphrase=ingest-passphrase&pkt_size=1316"], logsIn: directory)
        defer { ffmpeg.terminate() }
        #expect(await ffmpeg.exitStatus(within: 20) == 0, "\(ffmpeg.logs)")
        let report = try await running.value
        #expect(report.destinations.first?.failure == nil)
        let sent = try readTS(source), received = try readTS(output)
        #expect(await ingest.issues.isEmpty)
        // ffmpeg's sender closes without waiting for its last packets to be acknowledged: the SRT project's own
        // srt-live-transmit, listening the same way, records 48 of these 50 pictures and 89 of 95 AAC frames. So what
        // arrives is the stream up to its last tenth of a second, byte for byte, the last picture perhaps cut short.
        #expect(received.pictures.count >= sent.pictures.count - 5, "\(received.pictures.count) of \(sent.pictures.count) pictures")
        Self.expectPrefix(received.pictures.map(\.data), of: sent.pictures.map(\.data))
        #expect(received.pictures.map(\.pts) == sent.pictures.prefix(received.pictures.count).map(\.pts))
        #expect(received.audio.count >= sent.audio.count - 10, "\(received.audio.count) of \(sent.audio.count) AAC frames")
        #expect(received.audio.map(\.data) == sent.audio.prefix(received.audio.count).map(\.data))
    }

    @Test("A pipeline's SRT listener serves two ffmpeg pullers; one killed midway leaves the other's stream whole from its first key frame")
    func servePullers() async throws {
        try #require(ExternalTool.isRunnable("ffmpeg"))
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let port = TestPorts.reserve()
        let server = try SRTDestination(url: "srt://127.0.0.1:\(port)?mode=listener")
        let pipeline = LivePipeline(source: TSFileSource(path: source, pacing: .realTime))
        pipeline.add(server)
        let running = Task { try await pipeline.run() }
        try #require(await Readiness.waitForUDP(port: port, seconds: 15))
        let kept = directory.appendingPathComponent("kept.ts").path
        let pullers = try ["kept", "doomed"].map { name in
            try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-i", "srt://127.0.0.1:\(port)?streamid=%23%21%3A%3Ar%3Dlive,m%3Drequest",
                                       "-c", "copy", "-f", "mpegts", "-y", directory.appendingPathComponent("\(name).ts").path],
                            logsIn: directory)
        }
        defer { for puller in pullers { puller.terminate() } }
        try await Task.sleep(for: .milliseconds(700))
        pullers[1].vanish()
        let report = try await running.value
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        #expect(await pullers[0].exitStatus(within: 15) == 0, "\(pullers[0].logs)")
        let sent = try readTS(source), received = try readTS(kept)
        // The puller starts at a key frame: what it has is the end of what was sent, from a key frame on.
        let first = try #require(received.pictures.first, "the kept puller recorded nothing: \(pullers[0].logs)")
        #expect(first.isKeyFrame)
        let start = try #require(sent.pictures.firstIndex { $0.data == first.data })
        #expect(received.pictures.map(\.data) == sent.pictures[start...].map(\.data),
                "started at \(start), \(received.pictures.count) pictures of \(sent.pictures.count - start)")
    }

    @Test("GStreamer's srtsink publishes to a pipeline's SRT listener: every picture and AAC frame arrives",
          .enabled(if: ExternalTool.isRunnable("gst-launch-1.0")))
    func ingestFromGStreamer() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let port = TestPorts.reserve()
        let output = directory.appendingPathComponent("ingest.ts").path
        let ingest = SRTSource(url: "srt://127.0.0.1:\(port)?mode=listener&tsbpd=0")
        let pipeline = LivePipeline(source: ingest)
        pipeline.add(TSFileDestination(path: output), options: .recording())
        let running = Task { try await pipeline.run() }
        try #require(await Readiness.waitForUDP(port: port, seconds: 15))
        // tsparse times the buffers from the PCR and the sink plays them at that pace, seven TS packets per SRT packet.
        let gstreamer = try PeerProcess("gst-launch-1.0", ["-q", "filesrc", "location=\(source)", "!", "tsparse", "set-timestamps=true",
                                                          "alignment=7", "!", "srtsink", "uri=srt://127.0.0.1:\(port)?mode=caller", "sync=true"],
                                        logsIn: directory)
        defer { gstreamer.terminate() }
        #expect(await gstreamer.exitStatus(within: 20) == 0, "\(gstreamer.logs)")
        let report = try await running.value
        #expect(report.destinations.first?.failure == nil)
        let sent = try readTS(source), received = try readTS(output)
        // Like ffmpeg, srtsink closes at the end of the stream without waiting for its last packets to be acknowledged
        // (measured: 48 to 50 of 50 pictures arrive): the stream up to its last tenth of a second, byte for byte.
        #expect(received.pictures.count >= sent.pictures.count - 5, "\(received.pictures.count) of \(sent.pictures.count) pictures")
        Self.expectPrefix(received.pictures.map(\.data), of: sent.pictures.map(\.data))
        #expect(received.audio.count >= sent.audio.count - 10, "\(received.audio.count) of \(sent.audio.count) AAC frames")
        #expect(received.audio.map(\.data) == sent.audio.prefix(received.audio.count).map(\.data))
    }

    /// What a receiver recorded of a sender that closed without waiting for its last packets: the sent frames in
    /// order, byte for byte, but for the last one, which may have lost packets to the close (cut short, or with a hole:
    /// measured, GStreamer's srtsink on an x264 stream, 346 of 389 bytes).
    static func expectPrefix(_ received: [[UInt8]], of sent: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(received.count <= sent.count, sourceLocation: sourceLocation)
        let whole = received.dropLast()
        #expect(Array(whole) == Array(sent.prefix(whole.count)), "the frames before the last differ", sourceLocation: sourceLocation)
    }

    @Test("srt-live-transmit pulls from a pipeline's SRT listener: the stream from a key frame to the end, whole TS packets per SRT packet")
    func pulledBySRTLiveTransmit() async throws {
        try #require(ExternalTool.isRunnable("srt-live-transmit"))
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let ports = TestPorts.reserve(2)
        let server = try SRTDestination(url: "srt://127.0.0.1:\(ports)?mode=listener")
        let pipeline = LivePipeline(source: TSFileSource(path: source, pacing: .realTime))
        pipeline.add(server)
        let udp = try UDPDatagramCollector(port: ports + 1)
        let running = Task { try await pipeline.run() }
        try #require(await Readiness.waitForUDP(port: ports, seconds: 15))
        let transmit = try PeerProcess("srt-live-transmit", ["-q", "-a", "no", "srt://127.0.0.1:\(ports)", "udp://127.0.0.1:\(ports + 1)"],
                                       logsIn: directory)
        defer { transmit.terminate() }
        let report = try await running.value
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        _ = await transmit.waitForExit(seconds: 5)
        let sent = try readTS(source)
        let datagrams = udp.stop()
        try Data(datagrams.joined()).write(to: directory.appendingPathComponent("transmit.ts"))
        for (name, path) in [("srt-live-transmit", directory.appendingPathComponent("transmit.ts").path)] {
            let received = try readTS(path)
            let first = try #require(received.pictures.first, "\(name) recorded nothing")
            #expect(first.isKeyFrame, "\(name)")
            let start = try #require(sent.pictures.firstIndex { $0.data == first.data }, "\(name)")
            #expect(received.pictures.map(\.data) == sent.pictures[start...].map(\.data),
                    "\(name): started at \(start), \(received.pictures.count) pictures of \(sent.pictures.count - start)")
        }
        #expect(datagrams.allSatisfy { $0.count % 188 == 0 && $0.count <= 1316 }, "every SRT packet is whole TS packets")
    }

    @Test("GStreamer's srtsrc pulls from a pipeline's SRT listener: the stream from a key frame to the end",
          .enabled(if: ExternalTool.isRunnable("gst-launch-1.0")))
    func pulledByGStreamer() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        // 4 s with a key frame every second: gst-launch takes a while to load its plugins, and a file cannot be asked
        // for a key frame when the puller arrives.
        let source = directory.appendingPathComponent("source.ts").path
        try #require(try await recordTS(to: source, frames: 100).destinations.first?.failure == nil)
        let port = TestPorts.reserve()
        let server = try SRTDestination(url: "srt://127.0.0.1:\(port)?mode=listener")
        let pipeline = LivePipeline(source: TSFileSource(path: source, pacing: .realTime))
        pipeline.add(server)
        let running = Task { try await pipeline.run() }
        try #require(await Readiness.waitForUDP(port: port, seconds: 15))
        let output = directory.appendingPathComponent("gstreamer.ts").path
        // srtsrc does not end when the listener closes (it tries to reconnect), so it is stopped; the file sink writes
        // each buffer as it comes (its default holds 64 KiB until the pipeline stops).
        let gstreamer = try PeerProcess("gst-launch-1.0", ["-q", "srtsrc", "uri=srt://127.0.0.1:\(port)?mode=caller", "!",
                                                           "filesink", "buffer-mode=unbuffered", "location=\(output)"], logsIn: directory)
        defer { gstreamer.terminate() }
        let report = try await running.value
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        _ = await gstreamer.waitForExit(seconds: 5)
        gstreamer.interrupt()
        _ = await gstreamer.waitForExit(seconds: 5)
        let sent = try readTS(source), received = try readTS(output)
        let first = try #require(received.pictures.first, "srtsrc recorded nothing: \(gstreamer.logs)")
        #expect(first.isKeyFrame)
        let start = try #require(sent.pictures.firstIndex { $0.data == first.data })
        let expected = Array(sent.pictures[start...])
        let firstDifference = zip(received.pictures, expected).enumerated().first { $0.element.0.data != $0.element.1.data }?.offset
        #expect(received.pictures.count == expected.count && firstDifference == nil,
                "started at \(start): \(received.pictures.count) pictures of \(expected.count), first difference at \(String(describing: firstDifference))")
    }
}

#endif

import Foundation
import POSIX
import TestSupport

/// A peer (ffmpeg, GStreamer) running in the background for one test, stopped by ``stop()`` — always
/// within a bounded time (SIGTERM, then SIGKILL).
final class PeerProcess: @unchecked Sendable {
    let process = Process()
    let errorURL: URL

    /// Starts `name` (looked up on PATH, or a path) with `arguments`, its standard error into a file.
    init(_ name: String, _ arguments: [String]) throws {
        guard let executable = name.contains("/") ? name : ExternalTool.path(of: name) else {
            throw TestFailure("\(name) is not installed")
        }
        errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("sk-peer-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    /// Waits up to `seconds` for the process to exit by itself.
    /// - Returns: whether it exited.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return !process.isRunning
    }

    /// Waits up to `seconds` for the process to exit by itself, without holding a thread.
    /// - Returns: whether it exited.
    @discardableResult
    func wait(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return !process.isRunning
    }

    /// Stops the process (SIGTERM, SIGKILL after 3 s) and returns its standard error.
    @discardableResult
    func stop() -> String {
        if process.isRunning {
            process.terminate()
            if !wait(seconds: 3) { kill(process.processIdentifier, SIGKILL); wait(seconds: 3) }
        }
        defer { try? FileManager.default.removeItem(at: errorURL) }
        return (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// UDP sockets on loopback ports that collect the datagrams a peer sends, with their arrival times.
final class DatagramCollector: @unchecked Sendable {
    struct Datagram {
        var port: UInt16
        var bytes: [UInt8]
        var arrival: Duration
    }

    private var sockets: [(port: UInt16, socket: Socket)] = []
    private let start = ContinuousClock.now
    private(set) var datagrams: [Datagram] = []

    /// Binds one socket per port on 127.0.0.1.
    init(ports: [UInt16]) throws {
        for port in ports {
            let socket = try Socket(.udp, family: .ipv4, nonBlocking: true)
            try socket.setOption(.reuseAddress, to: true)
            try socket.setOption(.receiveBufferSize, to: 4 << 20)
            try socket.bind(to: .loopback(.ipv4, port: port))
            sockets.append((port, socket))
        }
    }

    /// Collects until `seconds` have passed, or `done` returns true.
    func collect(seconds: Double, until done: (DatagramCollector) -> Bool = { _ in false }) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { buffer.deallocate() }
        while ContinuousClock.now < deadline, !done(self) {
            var entries = sockets.map { PollEntry($0.socket.descriptor, events: .readable) }
            _ = try Poll.wait(&entries, timeout: .milliseconds(50))
            for (entry, item) in zip(entries, sockets) where entry.returnedEvents.contains(.readable) {
                while let received = try item.socket.receiveDatagram(into: buffer) {
                    datagrams.append(Datagram(port: item.port, bytes: Array(buffer[..<received.count]), arrival: ContinuousClock.now - start))
                }
            }
        }
    }

    /// ``collect(seconds:until:)`` on a thread of its own (``OffPool``); the caller must not touch the collector
    /// meanwhile.
    func collect(seconds: Double, until done: @escaping @Sendable (DatagramCollector) -> Bool) async throws {
        try await OffPool.run { try self.collect(seconds: seconds, until: done) }
    }

    deinit { for item in sockets { try? item.socket.close() } }
}

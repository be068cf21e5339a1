import Foundation
import TestSupport

/// A UDP socket on 127.0.0.1 for driving a DTLS engine against a peer process: send to one peer, receive with a
/// timeout, learn the peer's port from the first datagram.
final class LoopbackUDP {
    let descriptor: Int32
    let port: UInt16
    private var peer: sockaddr_in?

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw TestFailure("bind: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Sends to `port` from now on.
    func connect(to port: UInt16) { peer = Self.loopback(port: port) }

    func send(_ bytes: [UInt8]) {
        guard var peer else { return }
        _ = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// One datagram within `milliseconds`, or `nil`; the first sender becomes the peer when there is none yet.
    func receive(milliseconds: Int32) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &length) }
            }
        }
        guard count >= 0 else { return nil }
        if peer == nil { peer = sender }
        return Array(buffer.prefix(count))
    }
}

/// `openssl s_server` or `s_client` with a standard input held open (at end of input both end the session), its
/// output in a file; stopped on `deinit`.
final class OpenSSLPeer {
    private let process = Process()
    private let input = Pipe()
    private let outputURL: URL

    init(_ arguments: [String], in directory: URL) throws {
        outputURL = directory.appendingPathComponent("openssl-\(UUID().uuidString.prefix(8)).out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        guard let openssl = ExternalTool.path(of: "openssl") else { throw TestFailure("openssl is not installed") }
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.standardInput = input
        let handle = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Waits until the output contains `text`.
    func waitFor(_ text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.contains(text) { return true }
            usleep(20_000)
        }
        return output.contains(text)
    }

    /// The hex after `Keying material:` in the output.
    var keyingMaterial: String? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Keying material:") }) else { return nil }
        return line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Ends it: end of input (both tools then finish the session and exit), then SIGTERM, then SIGKILL; it polls
    /// instead of `waitUntilExit`, which was seen to block for good inside a parallel test run.
    deinit {
        try? input.fileHandleForWriting.close()
        for signal in [0, SIGTERM, SIGKILL] where process.isRunning {
            if signal != 0 { kill(process.processIdentifier, signal) }
            for _ in 0..<40 where process.isRunning { usleep(25_000) }
        }
    }
}

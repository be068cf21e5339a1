import Foundation
import TestSupport

/// A long-running peer (a server, a receiver, our own CLI) started by a test: its output goes to log
/// files, and ``stop()`` ends it — SIGINT, then SIGTERM, then SIGKILL — so no test leaves a process behind.
final class PeerProcess: @unchecked Sendable {
    /// The command line, for messages.
    let command: String
    private let process = Process()
    private let outURL: URL
    private let errURL: URL

    /// Starts a tool.
    /// - Parameters:
    ///   - name: the tool, looked up on `PATH` (or a path containing "/").
    ///   - arguments: its arguments.
    ///   - directory: where its logs go.
    /// - Throws: ``ExternalTool/Failure`` if it is missing or cannot start.
    init(_ name: String, _ arguments: [String], logsIn directory: URL) throws {
        command = ([name] + arguments).joined(separator: " ")
        guard let executable = name.contains("/") ? name : ExternalTool.path(of: name) else {
            throw TestFailure("\(command): \(name) is not installed")
        }
        let tag = UUID().uuidString.prefix(8)
        let base = (name as NSString).lastPathComponent
        outURL = directory.appendingPathComponent("\(base)-\(tag).out")
        errURL = directory.appendingPathComponent("\(base)-\(tag).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        do { try process.run() } catch { throw TestFailure("\(command): cannot start: \(error)") }
    }

    /// Whether it still runs.
    var isRunning: Bool { process.isRunning }

    /// Its exit status (valid once it has ended).
    var status: Int32 { process.terminationStatus }

    /// What it wrote to standard output so far.
    var standardOutput: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }

    /// What it wrote to standard error so far.
    var standardError: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Waits until it ends by itself, at most `seconds`.
    /// - Parameter seconds: the longest wait.
    /// - Returns: `true` if it ended.
    @discardableResult
    func waitForExit(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning
    }

    /// Ends it: SIGINT (ffmpeg and streamkit finish their files on it), then SIGTERM, then SIGKILL.
    /// - Parameter grace: how long each signal gets.
    func stop(grace: Double = 3) async {
        for signal in [SIGINT, SIGTERM, SIGKILL] where process.isRunning {
            kill(process.processIdentifier, signal)
            await waitForExit(seconds: grace)
        }
    }

    /// Both logs, for a failure message.
    var logs: String { "\(command)\n--- stdout\n\(standardOutput.suffix(2000))\n--- stderr\n\(standardError.suffix(3000))" }
}

/// Waiting for a peer to be ready.
enum Readiness {
    /// Waits until a TCP port on 127.0.0.1 accepts a connection.
    /// - Parameters:
    ///   - port: the port.
    ///   - seconds: the longest wait.
    /// - Returns: `true` once it accepts.
    static func waitForTCP(port: UInt16, seconds: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if canConnect(port: port) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    private static func canConnect(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Waits until a file exists and is not empty.
    /// - Parameters:
    ///   - path: the file.
    ///   - seconds: the longest wait.
    /// - Returns: `true` once it has bytes.
    static func waitForFile(_ path: String, seconds: Double = 15) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

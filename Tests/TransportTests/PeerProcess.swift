import Foundation
import TestSupport

/// An external tool (ffmpeg) run in the background, waited for without blocking a thread, and always stopped.
final class PeerProcess: @unchecked Sendable {
    let process = Process()
    let errorURL: URL
    let outputURL: URL
    let command: String

    /// Starts `name arguments`; standard output and error go to files in `directory`.
    init(_ name: String, _ arguments: [String], directory: URL) throws {
        guard let executable = ExternalTool.path(of: name) else {
            throw PeerMissing(name: name)
        }
        command = ([name] + arguments).joined(separator: " ")
        let tag = UUID().uuidString
        errorURL = directory.appendingPathComponent("peer-\(tag).err")
        outputURL = directory.appendingPathComponent("peer-\(tag).out")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    /// Waits until it exits, or kills it after `timeout`.
    /// - Returns: its exit status (a signal's status when killed).
    @discardableResult
    func wait(timeout: Duration) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        stop()
        return process.terminationStatus
    }

    /// Stops it (SIGTERM, then SIGKILL) if it still runs.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<40 where process.isRunning { usleep(25_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }
    var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    deinit { stop() }
}

/// A tool the test needs is not installed (a failure in CI, where every peer must be present).
struct PeerMissing: Error, CustomStringConvertible {
    var name: String
    var description: String { "\(name) is not installed" }
}

import Foundation
import TestSupport

/// A tool (nginx, ffmpeg, streamkit) run in the background, waited for without blocking a thread, and always
/// stopped.
final class PeerProcess: @unchecked Sendable {
    let process = Process()
    let errorURL: URL
    let outputURL: URL
    let command: String

    /// Starts `executable arguments` (a name on `PATH` or a path); standard output and error go to files in
    /// `directory`.
    init(_ executable: String, _ arguments: [String], directory: URL) throws {
        guard let path = executable.contains("/") ? executable : ExternalTool.path(of: executable) else {
            throw TestFailure("\(executable) is not installed")
        }
        command = ([executable] + arguments).joined(separator: " ")
        let tag = UUID().uuidString.prefix(8)
        let name = (executable as NSString).lastPathComponent
        errorURL = directory.appendingPathComponent("\(name)-\(tag).err")
        outputURL = directory.appendingPathComponent("\(name)-\(tag).out")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    /// Waits until it exits, at most `timeout`.
    /// - Returns: whether it exited by itself.
    func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return !process.isRunning
    }

    /// Sends SIGINT (ffmpeg and streamkit finish their files on it).
    func interrupt() {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
    }

    /// Stops it (SIGTERM, then SIGKILL) if it still runs.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<40 where process.isRunning { usleep(25_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Its exit status (once it exited).
    var status: Int32 { process.isRunning ? -1 : process.terminationStatus }
    var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }
    var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    /// Both logs, for a failure message.
    var logs: String { "$ \(command)\n\(standardOutput.suffix(2000))\n\(standardError.suffix(3000))" }

    deinit { stop() }
}

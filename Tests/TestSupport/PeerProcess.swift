import Foundation

/// A long-running peer (a server, a receiver, our own CLI) started by a test: its output goes to log files, and it
/// is always ended — by ``stop(grace:)`` (SIGINT, then SIGTERM, then SIGKILL), by ``terminate()`` where the caller
/// cannot wait asynchronously (a `defer`), or at the latest when the last reference goes — so no test leaves a
/// process behind.
public final class PeerProcess: @unchecked Sendable {
    /// The command line, for messages.
    public let command: String
    private let process = Process()
    private let outURL: URL
    private let errURL: URL

    /// Starts a tool.
    /// - Parameters:
    ///   - name: the tool, looked up on `PATH` (or a path containing "/").
    ///   - arguments: its arguments.
    ///   - directory: where its logs go.
    /// - Throws: ``TestFailure`` if it is missing or cannot start.
    public init(_ name: String, _ arguments: [String], logsIn directory: URL) throws {
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
    public var isRunning: Bool { process.isRunning }

    /// Its exit status once it has ended (the signal's number when a signal ended it); -1 while it runs.
    public var status: Int32 { process.isRunning ? -1 : process.terminationStatus }

    /// What it wrote to standard output so far.
    public var standardOutput: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }

    /// What it wrote to standard error so far.
    public var standardError: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Both logs, for a failure message.
    public var logs: String { "\(command)\n--- stdout\n\(standardOutput.suffix(2000))\n--- stderr\n\(standardError.suffix(3000))" }

    /// Waits until it ends by itself, at most `seconds`, without blocking a thread.
    /// - Parameter seconds: the longest wait.
    /// - Returns: `true` if it ended.
    @discardableResult
    public func waitForExit(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning
    }

    /// Waits until it ends by itself, at most `seconds`, then ends it (``terminate()``) if it still runs.
    /// - Parameter seconds: the longest wait.
    /// - Returns: its exit status (the signal's number when it had to be ended).
    @discardableResult
    public func exitStatus(within seconds: Double) async -> Int32 {
        await waitForExit(seconds: seconds)
        terminate()
        return status
    }

    /// Ends it at once with SIGKILL and returns without waiting: a peer that vanishes mid-stream.
    public func vanish() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Sends SIGINT (ffmpeg and streamkit finish their files on it) and returns at once.
    public func interrupt() {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
    }

    /// Ends it gently: SIGINT (ffmpeg and streamkit finish their files on it), then SIGTERM, then SIGKILL.
    /// - Parameter grace: how long each signal gets, in seconds.
    public func stop(grace: Double = 3) async {
        for signal in [SIGINT, SIGTERM, SIGKILL] where process.isRunning {
            kill(process.processIdentifier, signal)
            await waitForExit(seconds: grace)
        }
    }

    /// Ends it now, blocking the calling thread (for a `defer` or `deinit`): SIGTERM, then SIGKILL after a
    /// second; returns once it has ended. Does nothing if it has ended already.
    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<40 where process.isRunning { usleep(25_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { terminate() }
}

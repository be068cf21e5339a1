import Foundation

/// Running the `streamkit` CLI (the built product) from the tests, and reading what ffmpeg's `framemd5` makes of
/// its output.
public enum Streamkit {
    /// Starts `streamkit` in the background.
    /// - Parameters:
    ///   - arguments: the command line after `streamkit`.
    ///   - directory: where its logs go.
    /// - Returns: the process.
    /// - Throws: ``TestFailure`` or ``ExternalTool/Failure`` if it is not built or cannot start.
    public static func start(_ arguments: [String], logsIn directory: URL) throws -> PeerProcess {
        try PeerProcess(ExternalTool.builtProduct("streamkit"), arguments, logsIn: directory)
    }

    /// Starts `streamkit` in the background and waits (at most 20 s) until its standard error says `ready`.
    /// - Parameters:
    ///   - arguments: the command line after `streamkit`.
    ///   - directory: where its logs go.
    ///   - ready: what it says once it is ready (for example "playing").
    /// - Returns: the process.
    /// - Throws: ``TestFailure`` if it exits or does not say it in time (it is then ended).
    public static func start(_ arguments: [String], in directory: URL, readyWhen ready: String) async throws -> PeerProcess {
        let process = try start(arguments, logsIn: directory)
        let deadline = ContinuousClock.now + .seconds(20)
        while !process.standardError.contains(ready), process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard process.standardError.contains(ready) else {
            process.terminate()
            throw TestFailure("streamkit did not say \"\(ready)\"\n\(process.logs)")
        }
        return process
    }

    /// Runs `streamkit` to its end, at most `seconds`, and fails if it does not exit with 0.
    /// - Parameters:
    ///   - arguments: the command line after `streamkit`.
    ///   - directory: where its logs go.
    ///   - seconds: the longest run.
    /// - Returns: the finished process (its logs).
    /// - Throws: ``TestFailure`` if it does not finish in time (it is then stopped) or fails.
    @discardableResult
    public static func run(_ arguments: [String], in directory: URL, seconds: Double = 60) async throws -> PeerProcess {
        let process = try start(arguments, logsIn: directory)
        guard await process.waitForExit(seconds: seconds) else {
            await process.stop()
            throw TestFailure("streamkit did not finish in \(seconds) s\n\(process.logs)")
        }
        guard process.status == 0 else { throw TestFailure("streamkit failed (\(process.status))\n\(process.logs)") }
        return process
    }

    /// Waits for a started `streamkit` to exit by itself (at most `seconds`; then SIGINT and 5 s more), then ends it.
    /// - Parameters:
    ///   - process: what ``start(_:in:readyWhen:)`` returned.
    ///   - seconds: the longest wait.
    /// - Throws: ``TestFailure`` unless it exited by itself with 0.
    public static func finish(_ process: PeerProcess, seconds: Int = 30) async throws {
        let exited = await process.waitForExit(seconds: Double(seconds))
        if !exited {
            process.interrupt()
            await process.waitForExit(seconds: 5)
        }
        process.terminate()
        guard exited, process.status == 0 else { throw TestFailure("streamkit did not finish well (\(process.status))\n\(process.logs)") }
    }

    /// ffmpeg's `framemd5` of a file's first video stream, ffmpeg waited for on a thread of its own (``OffPool``).
    /// - Parameter path: the file.
    /// - Returns: one hash per frame.
    /// - Throws: ``ExternalTool/Failure`` if ffmpeg fails.
    public static func frameHashes(decoding path: String) async throws -> [String] {
        try await OffPool.run { try frameHashes(decoding: path) }
    }

    /// The MD5 column of an ffmpeg `framemd5` file.
    /// - Parameter path: the file.
    /// - Returns: one hash per frame.
    public static func frameHashes(ofFile path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return FrameMD5.hashes(text)
    }

    /// ffmpeg's `framemd5` of a file's first video stream.
    /// - Parameter path: the file.
    /// - Returns: one hash per frame.
    /// - Throws: ``ExternalTool/Failure`` if ffmpeg fails.
    public static func frameHashes(decoding path: String) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
        return FrameMD5.hashes(output.text)
    }
}

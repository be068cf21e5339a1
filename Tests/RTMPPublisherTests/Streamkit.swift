import Foundation
import TestSupport

/// Running the `streamkit` CLI from the streaming tests.
enum Streamkit {
    /// Starts `streamkit` in the background.
    /// - Parameters:
    ///   - arguments: the command line after `streamkit`.
    ///   - directory: where its logs go.
    /// - Returns: the process.
    static func start(_ arguments: [String], logsIn directory: URL) throws -> PeerProcess {
        try PeerProcess(ExternalTool.builtProduct("streamkit"), arguments, logsIn: directory)
    }

    /// Runs `streamkit` to its end, at most `seconds`, and fails if it does not exit with 0.
    /// - Parameters:
    ///   - arguments: the command line after `streamkit`.
    ///   - directory: where its logs go.
    ///   - seconds: the longest run.
    /// - Returns: the finished process (its logs).
    @discardableResult
    static func run(_ arguments: [String], in directory: URL, seconds: Double = 60) async throws -> PeerProcess {
        let process = try start(arguments, logsIn: directory)
        guard await process.waitForExit(seconds: seconds) else {
            await process.stop()
            throw TestFailure("streamkit did not finish in \(seconds) s\n\(process.logs)")
        }
        guard process.status == 0 else { throw TestFailure("streamkit failed (\(process.status))\n\(process.logs)") }
        return process
    }

    /// The MD5 column of an ffmpeg `framemd5` file.
    /// - Parameter path: the file.
    /// - Returns: one hash per frame.
    static func frameHashes(ofFile path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// ffmpeg's `framemd5` of a file's first video stream.
    /// - Parameter path: the file.
    /// - Returns: one hash per frame.
    static func frameHashes(decoding path: String) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}

import Foundation
import TestSupport

/// A bounded capture of loopback traffic with `dumpcap`, dissected afterwards by `tshark` (Wireshark's
/// dissectors as the protocol checker): ``malformedReport(decodingAs:)`` lists every malformed packet and
/// every expert warning or error.
struct PacketCapture {
    /// The capture file.
    let path: String
    private let process: PeerProcess

    /// Starts capturing on `lo`.
    /// - Parameters:
    ///   - filter: the capture filter (for example `tcp port 21010 or udp portrange 21010-21020`).
    ///   - seconds: the longest the capture runs.
    ///   - directory: where the file goes.
    /// - Throws: if dumpcap cannot start.
    init(filter: String, seconds: Int, in directory: URL) async throws {
        path = directory.appendingPathComponent("capture.pcapng").path
        process = try PeerProcess("dumpcap", ["-q", "-i", "lo", "-f", filter, "-a", "duration:\(seconds)", "-w", path], logsIn: directory)
        // dumpcap writes the file's header once it captures.
        guard await Readiness.waitForFile(path, seconds: 10) else {
            await process.stop()
            throw TestFailure("dumpcap did not start\n\(process.logs)")
        }
        try await Task.sleep(for: .milliseconds(300))
    }

    /// Ends the capture.
    func stop() async { await process.stop() }

    /// Dissects the capture: the number of packets of each protocol asked for and every line that says a
    /// packet is malformed or carries an expert warning or error.
    /// - Parameter decodeAs: tshark `-d` rules (for example `tcp.port==21010,rtsp`, `udp.port==21012,rtp`).
    /// - Returns: the whole verbose dissection and the offending lines.
    func dissect(decodingAs decodeAs: [String]) throws -> (verbose: String, problems: [String]) {
        var arguments = ["-r", path, "-o", "rtp.heuristic_rtp:TRUE"]
        for rule in decodeAs { arguments += ["-d", rule] }
        let verbose = try ExternalTool.check("tshark", arguments + ["-V"]).text
        let expert = try ExternalTool.check("tshark", arguments + ["-q", "-z", "expert,warn"]).text
        var problems = verbose.split(separator: "\n").filter { $0.contains("Malformed") || $0.contains("[Expert Info (Error") || $0.contains("[Expert Info (Warning") }
            .map(String.init)
        problems += expert.split(separator: "\n").filter { $0.contains("Warning") || $0.contains("Error") }
            .filter { !$0.contains("=====") }.map(String.init)
        return (verbose, problems)
    }
}

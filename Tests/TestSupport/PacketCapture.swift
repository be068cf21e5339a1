import Foundation

/// A bounded capture of loopback traffic with `dumpcap`, dissected afterwards by `tshark` (Wireshark's
/// dissectors as the protocol checker): ``malformedReport(decodingAs:)`` lists every malformed packet and
/// every expert warning or error.
public struct PacketCapture: Sendable {
    /// The capture file.
    public let path: String
    private let process: PeerProcess

    /// Starts capturing on `lo`.
    /// - Parameters:
    ///   - filter: the capture filter (for example `tcp port 21010 or udp portrange 21010-21020`).
    ///   - seconds: the longest the capture runs.
    ///   - directory: where the file goes.
    /// - Throws: ``TestFailure`` if dumpcap cannot start.
    public init(filter: String, seconds: Int, in directory: URL) async throws {
        path = directory.appendingPathComponent("capture.pcapng").path
        process = try PeerProcess("dumpcap", ["-q", "-i", "lo", "-f", filter, "-a", "duration:\(seconds)", "-w", path], logsIn: directory)
        // dumpcap says "Capturing on 'Loopback: lo'" once the interface is open. The file is no sign: dumpcap buffers
        // its header until packets come, and waiting for bytes in it failed whenever other suites kept the machine busy.
        let deadline = ContinuousClock.now + .seconds(30)
        while !process.standardError.contains("Capturing on"), process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard process.standardError.contains("Capturing on"), process.isRunning else {
            await process.stop()
            throw TestFailure("dumpcap did not start\n\(process.logs)")
        }
        try await Task.sleep(for: .milliseconds(300))
    }

    /// Ends the capture.
    public func stop() async { await process.stop() }

    /// Dissects the capture: every line that says a packet is malformed or carries an expert error.
    ///
    /// One exception is kept apart, in `sdpParameterSetProblems`: Wireshark 4.0 dissects the SPS inside an SDP's
    /// `sprop-parameter-sets` without removing its emulation-prevention bytes (RFC 6184 §8.1 carries NAL units as
    /// they are, with them), so an x264 High-profile SPS with `00 00 03` in its VUI reads past its end there — a
    /// dissector limitation, not a malformed packet (ffmpeg and GStreamer decode the same SPS).
    /// - Parameter decodeAs: tshark `-d` rules (for example `tcp.port==21010,rtsp`).
    /// - Returns: the whole verbose dissection, the offending lines, and the SDP parameter-set lines set apart.
    /// - Throws: ``ExternalTool/Failure`` if tshark fails.
    public func dissect(decodingAs decodeAs: [String]) async throws -> (verbose: String, problems: [String], sdpParameterSetProblems: Int) {
        var arguments = ["-r", path, "-o", "h264.dynamic.payload.type:96"]
        for rule in decodeAs { arguments += ["-d", rule] }
        let verbose = try await ExternalTool.check("tshark", arguments + ["-V"]).text
        var problems: [String] = []
        var sdpProblems = 0
        // The indentation of a "[Malformed Packet: SDP]" line: the lines more indented below it are its details.
        var sdpProblemIndent: Int?
        for line in verbose.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            if line.contains("[Malformed Packet: SDP]") {
                sdpProblemIndent = indent
                sdpProblems += 1
                continue
            }
            if let depth = sdpProblemIndent, indent > depth { continue }
            sdpProblemIndent = nil
            if line.contains("Malformed") || line.contains("[Expert Info (Error") { problems.append(String(line)) }
        }
        return (verbose, problems, sdpProblems)
    }
}

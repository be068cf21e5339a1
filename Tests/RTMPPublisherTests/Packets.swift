import Foundation
import TestSupport

/// ffprobe's packets of a file: stream kind, pts and dts in milliseconds.
struct ProbedPacket {
    var isVideo: Bool
    var pts: Int
    var dts: Int

    /// Reads a file's packets with ffprobe.
    /// - Parameter path: the file.
    /// - Returns: its packets in file order.
    static func read(_ path: String) throws -> [ProbedPacket] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,pts,dts",
                                                        "-of", "csv=p=0", path])
        return output.text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
            guard fields.count >= 3, let pts = Int(fields[1]), let dts = Int(fields[2]) else { return nil }
            return ProbedPacket(isVideo: fields[0] == "video", pts: pts, dts: dts)
        }
    }
}

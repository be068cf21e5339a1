import Foundation
import TestSupport

/// What ffprobe says about a stream: the oracle for `inspect`.
struct FFprobeReport {
    struct Frame {
        var pictureType: String
        var isKey: Bool
    }

    var codec: String
    var width: Int?
    var height: Int?
    var profile: String?
    var sampleRate: Int?
    var channels: Int?
    /// Decoded frames in output (display) order.
    var frames: [Frame]
    /// Demuxed packets (access units) in decode order, with their sizes.
    var packetSizes: [Int]

    /// Runs ffprobe on a file.
    /// - Parameters:
    ///   - path: the file.
    ///   - formatName: the demuxer to force (`h264`, `hevc`, `aac`), so ffprobe reads the same bytes we do.
    static func probe(_ path: String, formatName: String) throws -> FFprobeReport {
        let streams = try ExternalTool.check("ffprobe", ["-v", "error", "-f", formatName, "-show_streams", "-select_streams", formatName == "aac" ? "a:0" : "v:0",
                                                        "-of", "json", path])
        let streamJSON = try JSONSerialization.jsonObject(with: streams.standardOutput) as? [String: Any]
        let stream = (streamJSON?["streams"] as? [[String: Any]])?.first ?? [:]
        var frames: [Frame] = []
        var packetSizes: [Int] = []
        if formatName != "aac" {
            let output = try ExternalTool.run("ffprobe", ["-v", "quiet", "-f", formatName, "-select_streams", "v:0", "-show_frames", "-show_packets",
                                                         "-show_entries", "frame=pict_type,key_frame:packet=size", "-of", "csv", path])
            for line in output.text.split(separator: "\n") {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                if fields.first == "frame", fields.count >= 3 {
                    frames.append(Frame(pictureType: String(fields[2]), isKey: fields[1] == "1"))
                } else if fields.first == "packet", fields.count >= 2, let size = Int(fields[1]) {
                    packetSizes.append(size)
                }
            }
        } else {
            let output = try ExternalTool.check("ffprobe", ["-v", "error", "-f", "aac", "-select_streams", "a:0", "-show_packets", "-show_entries", "packet=size",
                                                           "-of", "csv", path])
            packetSizes = output.text.split(separator: "\n").compactMap { $0.split(separator: ",").last.flatMap { Int($0) } }
        }
        return FFprobeReport(codec: stream["codec_name"] as? String ?? "", width: stream["width"] as? Int,
                             height: stream["height"] as? Int, profile: stream["profile"] as? String,
                             sampleRate: (stream["sample_rate"] as? String).flatMap(Int.init),
                             channels: stream["channels"] as? Int, frames: frames, packetSizes: packetSizes)
    }
}

import Foundation
import TestSupport

/// Shared steps of the command-line tests.
enum CLI {
    /// How many frames `record` says the camera dropped (its "the camera dropped N frames" line; 0 without one).
    static func framesTheCameraDropped(_ log: String) -> Int {
        log.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("the camera dropped ") else { return nil }
            return Int(line.dropFirst("the camera dropped ".count).prefix { $0.isNumber })
        }.first ?? 0
    }

    /// Runs `streamkit` with arguments in a directory.
    /// - Parameters:
    ///   - arguments: the command line after `streamkit`.
    /// - Returns: the output.
    static func run(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.runProduct("streamkit", arguments)
    }

    /// The values of one ffprobe `-show_entries` query, one dictionary per stream/frame/packet line.
    /// - Parameters:
    ///   - path: the file.
    ///   - arguments: ffprobe's selection arguments (for example `-show_frames -show_entries frame=key_frame`).
    /// - Returns: the rows as `key=value` dictionaries.
    static func probe(_ path: String, _ arguments: [String]) throws -> [[String: String]] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error"] + arguments + ["-of", "compact", path])
        return output.text.split(separator: "\n").map { line in
            var row: [String: String] = [:]
            for field in line.split(separator: "|").dropFirst() {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { row[String(parts[0])] = String(parts[1]) }
            }
            return row
        }
    }

    /// The MD5 column of an ffmpeg `framemd5` listing.
    /// - Parameter text: the listing.
    /// - Returns: one hash per frame.
    static func frameHashes(_ text: String) -> [String] {
        FrameMD5.hashes(text)
    }
}

extension CLI {
    /// The average luma+chroma PSNR, frame n against frame n, of two videos that ffmpeg decodes to raw
    /// yuv420p (ffmpeg's psnr filter pairs frames by timestamp, and raw H.264 has none).
    /// - Parameters:
    ///   - path: the encoded video.
    ///   - reference: the source, in any format ffmpeg reads (`inputArguments` go before it).
    ///   - inputArguments: demuxer options for the reference, for example `-f rawvideo -s 320x240`.
    ///   - width: the picture width.
    ///   - height: the picture height.
    /// - Returns: the mean PSNR in dB over all frames (each frame's PSNR capped at 100 dB).
    static func psnr(of path: String, against reference: String, inputArguments: [String] = [], width: Int, height: Int) throws -> Double {
        func raw(_ arguments: [String]) throws -> [UInt8] {
            [UInt8](try ExternalTool.check("ffmpeg", ["-v", "error"] + arguments + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]).standardOutput)
        }
        let ours = try raw(["-i", path])
        let theirs = try raw(inputArguments + ["-i", reference])
        let frameSize = width * height * 3 / 2
        let frames = min(ours.count, theirs.count) / frameSize
        guard frames > 0, ours.count == theirs.count else {
            throw TestFailure("psnr: frame counts differ: \(ours.count / frameSize) vs \(theirs.count / frameSize)")
        }
        var total = 0.0
        for frame in 0..<frames {
            var squared = 0
            for index in (frame * frameSize)..<((frame + 1) * frameSize) {
                let difference = Int(ours[index]) - Int(theirs[index])
                squared += difference * difference
            }
            let mse = Double(squared) / Double(frameSize)
            total += mse == 0 ? 100 : min(100, 10 * log10(255 * 255 / mse))
        }
        return total / Double(frames)
    }
}

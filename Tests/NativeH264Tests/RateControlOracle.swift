import Containers
import Foundation
import MediaCore
import NativeH264
import TestSupport

/// What the rate-control and engine tests check a stream against: ffmpeg decodes it with
/// `-err_detect explode`, its framemd5 equals the md5 of our reconstruction frame by frame, and
/// ffprobe gives every packet's size.
enum RateControlOracle {
    /// A stream and our reconstruction of it.
    struct Encoded {
        var stream = [UInt8]()
        var reconstruction = [UInt8]()
        /// Annex B bytes of each picture, in order.
        var pictureSizes = [Int]()
        /// The slice QP of each picture.
        var quantisationParameters = [Int]()
        var frameCount = 0
    }

    /// Encodes `frames` one after the other, calling `adjust` before each (for live changes).
    static func encode(_ frames: [PixelBuffer], with encoder: inout NativeH264Encoder,
                       adjust: (Int, inout NativeH264Encoder) throws -> Void = { _, _ in }) throws -> Encoded {
        var result = Encoded()
        for (index, frame) in frames.enumerated() {
            try adjust(index, &encoder)
            let picture = try encoder.encode(frame)
            let bytes = picture.annexB
            result.stream += bytes
            result.pictureSizes.append(bytes.count)
            result.quantisationParameters.append(encoder.quantisationParameter)
            result.reconstruction += picture.reconstruction.packedBytes
            result.frameCount += 1
        }
        return result
    }

    /// A fresh folder, removed by the caller.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("native-rc-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The md5 of each frame ffmpeg decodes from `path` (with `-err_detect explode`), and its error output.
    static func decodedHashes(of path: String) throws -> (hashes: [String], errors: String) {
        let decoded = try ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-err_detect", "explode",
                                                       "-i", path, "-f", "framemd5", "-"])
        return (hashes(decoded.text), decoded.status == 0 ? decoded.standardError : "status \(decoded.status): \(decoded.standardError)")
    }

    /// The md5 of each frame of a raw I420 file.
    static func rawHashes(of path: String, width: Int, height: Int) throws -> [String] {
        let ours = try ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                                                    "-s", "\(width)x\(height)", "-i", path, "-f", "framemd5", "-"])
        return hashes(ours.text)
    }

    /// The md5 of each frame of a Y4M file.
    static func y4mHashes(of path: String) throws -> [String] {
        hashes(try ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-i", path, "-f", "framemd5", "-"]).text)
    }

    /// The hash column of ffmpeg's framemd5 output.
    static func hashes(_ framemd5: String) -> [String] {
        framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Every packet's size as ffprobe reads the stream (`-show_packets`), in decode order.
    static func packetSizes(of path: String) throws -> [Int] {
        let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        return probe.text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The largest sum of `count` consecutive sizes.
    static func largestWindow(_ sizes: [Int], count: Int) -> Int {
        guard count > 0, !sizes.isEmpty else { return 0 }
        var sum = sizes.prefix(count).reduce(0, +), best = sum
        if sizes.count > count {
            for i in count..<sizes.count {
                sum += sizes[i] - sizes[i - count]
                best = max(best, sum)
            }
        }
        return best
    }

    /// `count` frames of a short sequence played forwards and backwards (no cut at the loop).
    static func pingPong(_ frames: [PixelBuffer], count: Int) -> [PixelBuffer] {
        guard frames.count > 1 else { return Array(repeating: frames[0], count: count) }
        let cycle = frames + frames.dropFirst().dropLast().reversed()
        return (0..<count).map { cycle[$0 % cycle.count] }
    }

    /// The frames of a Y4M file.
    static func y4mFrames(_ path: String) throws -> [PixelBuffer] {
        var reader = try Y4MReader(path: path)
        var frames = [PixelBuffer]()
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    /// The frames of a raw I420 file.
    static func rawFrames(_ path: String, width: Int, height: Int) throws -> [PixelBuffer] {
        var reader = try RawVideoReader(path: path, width: width, height: height, format: .i420)
        var frames = [PixelBuffer]()
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }
}

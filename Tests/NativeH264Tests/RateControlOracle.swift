import Containers
import Foundation
import MediaCore
import NativeH264
import TestSupport

/// What the rate-control tests encode and measure: the pictures' sizes and QPs, ffprobe's packet sizes, the
/// largest window of the stream (the bit-exactness check is ``ReconstructionOracle``'s).
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

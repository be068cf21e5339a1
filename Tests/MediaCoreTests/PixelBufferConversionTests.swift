import Foundation
import MediaCore
import Testing
import TestSupport

/// Layout conversions checked byte for byte against ffmpeg: ffmpeg writes the same frames as raw
/// yuv420p, nv12, nv21 and YV12 (yuv420p with the chroma planes swapped by `shuffleplanes=0:2:1`),
/// and every conversion between our buffers must reproduce ffmpeg's bytes of the target layout.
@Suite("PixelBuffer conversions")
struct PixelBufferConversionTests {
    /// Raw frames of one clip in every layout, as ffmpeg wrote them.
    struct Clip {
        var width: Int
        var height: Int
        var frames: [PixelFormat: [[UInt8]]]
    }

    /// Makes `size` crops of Foreman QCIF in the four layouts. The crop is done once (to yuv420p,
    /// `exact=1` so odd sizes stay odd); each layout is then converted from that raw file by ffmpeg.
    static func makeClip(width: Int, height: Int) throws -> Clip {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = MediaFiles.url("sequences/foreman_qcif8.y4m").path
        let base = directory.appendingPathComponent("base.yuv").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", source, "-vf", "crop=\(width):\(height):0:0:exact=1",
                                          "-f", "rawvideo", "-pix_fmt", "yuv420p", base])
        let input = ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-i", base]
        var files: [PixelFormat: String] = [.i420: base]
        for (format, extra) in [(PixelFormat.nv12, ["-pix_fmt", "nv12"]), (.nv21, ["-pix_fmt", "nv21"]),
                                (.yv12, ["-vf", "shuffleplanes=0:2:1", "-pix_fmt", "yuv420p"])] {
            let path = directory.appendingPathComponent("\(format).yuv").path
            try ExternalTool.check("ffmpeg", input + extra + ["-f", "rawvideo", path])
            files[format] = path
        }
        // The size of a 4:2:0 frame, from the layout definition (chroma planes are ceil(w/2) x ceil(h/2)).
        let frameSize = width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        var frames: [PixelFormat: [[UInt8]]] = [:]
        for (format, path) in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            try #require(bytes.count == 8 * frameSize, "ffmpeg wrote \(bytes.count) bytes for \(format)")
            frames[format] = (0..<8).map { Array(bytes[($0 * frameSize)..<(($0 + 1) * frameSize)]) }
        }
        return Clip(width: width, height: height, frames: frames)
    }

    static let sizes: [(Int, Int)] = [(176, 144), (175, 143)]

    @Test("every layout converts to every layout exactly as ffmpeg writes it", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: sizes)
    func allPairsMatchFFmpeg(width: Int, height: Int) throws {
        let clip = try Self.makeClip(width: width, height: height)
        for source in PixelFormat.allCases {
            for target in PixelFormat.allCases {
                for (index, raw) in (clip.frames[source] ?? []).enumerated() {
                    let buffer = try PixelBuffer(packed: raw, width: width, height: height, format: source)
                    let converted = buffer.converted(to: target)
                    #expect(converted.format == target)
                    #expect(converted.packedBytes == clip.frames[target]?[index],
                            "\(source) → \(target), frame \(index), \(width)x\(height)")
                }
            }
        }
    }

    @Test("padded strides in and out keep the samples", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")), arguments: sizes)
    func paddedStrides(width: Int, height: Int) throws {
        let clip = try Self.makeClip(width: width, height: height)
        for source in PixelFormat.allCases {
            guard let raw = clip.frames[source]?.last else { Issue.record("no frames for \(source)"); continue }
            // A padded source: 64-byte rows, made by converting to the same layout.
            let padded = try PixelBuffer(packed: raw, width: width, height: height, format: source)
                .converted(to: source, rowAlignment: 64)
            #expect(padded.planes.allSatisfy { $0.bytesPerRow % 64 == 0 && $0.bytesPerRow > $0.rowLength })
            #expect(padded.packedBytes == raw)
            for target in PixelFormat.allCases {
                let converted = padded.converted(to: target, rowAlignment: 32)
                #expect(converted.planes.allSatisfy { $0.bytesPerRow % 32 == 0 })
                #expect(converted.packedBytes == clip.frames[target]?.last, "\(source) (padded) → \(target)")
            }
        }
    }

    @Test("a hand-padded plane with odd strides converts")
    func oddStrideSource() throws {
        // 3x3 picture: chroma is 2x2. Strides 5 (luma) and 3/7 (chroma) with 0xEE in the padding.
        let luma = PixelBuffer.Plane(bytes: [1, 2, 3, 0xEE, 0xEE, 4, 5, 6, 0xEE, 0xEE, 7, 8, 9], bytesPerRow: 5, rowLength: 3, rowCount: 3)
        let u = PixelBuffer.Plane(bytes: [10, 11, 0xEE, 12, 13], bytesPerRow: 3, rowLength: 2, rowCount: 2)
        let v = PixelBuffer.Plane(bytes: [20, 21, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 22, 23], bytesPerRow: 7, rowLength: 2, rowCount: 2)
        let buffer = try PixelBuffer(width: 3, height: 3, format: .i420, planes: [luma, u, v])
        // Expected bytes follow from the layout definitions in PixelFormat (NV12: Y then U,V pairs).
        #expect(buffer.converted(to: .nv12).packedBytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 11, 21, 12, 22, 13, 23])
        #expect(buffer.converted(to: .nv21).packedBytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 10, 21, 11, 22, 12, 23, 13])
        #expect(buffer.converted(to: .yv12).packedBytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 22, 23, 10, 11, 12, 13])
        #expect(buffer.converted(to: .i420).packedBytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 21, 22, 23])
    }

    @Test("range survives a conversion")
    func rangeIsKept() throws {
        let buffer = PixelBuffer(width: 4, height: 2, format: .nv12, range: .full)
        #expect(buffer.converted(to: .i420).range == .full)
        #expect(buffer.converted(to: .yv12, rowAlignment: 0).planes[0].bytesPerRow == 4)
    }

    @Test("a plane shortened after creation does not trap")
    func damagedPlane() {
        var buffer = PixelBuffer(width: 8, height: 8, format: .nv12)
        buffer.planes[1].bytes = [1, 2, 3]
        buffer.planes[0].bytes.removeLast(10)
        let converted = buffer.converted(to: .i420)
        #expect(converted.packedBytes.count == converted.packedByteCount)
        buffer.planes.removeLast()
        #expect(buffer.converted(to: .yv12).packedBytes.count == 96)
    }

    @Test("init(packed:) checks the byte count and the size")
    func packedErrors() {
        // 176x144 4:2:0 is 176*144*3/2 = 38016 bytes (the layout definition).
        #expect(throws: PixelBufferError.wrongByteCount(expected: 38016, actual: 38015)) {
            try PixelBuffer(packed: [UInt8](repeating: 0, count: 38015), width: 176, height: 144, format: .nv12)
        }
        #expect(throws: PixelBufferError.invalidSize(width: 0, height: 144)) {
            try PixelBuffer(packed: [], width: 0, height: 144, format: .i420)
        }
        #expect(throws: PixelBufferError.invalidSize(width: Int.max, height: 3)) {
            try PixelBuffer(packed: [], width: Int.max, height: 3, format: .i420)
        }
    }
}

import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// RawVideoReader on the shared cars clip (320x240 I420, 30 frames per the media MANIFEST) and on
/// ffmpeg's NV12/NV21 conversions of it.
@Suite("RawVideoReader")
struct RawVideoReaderTests {
    static let cars = "sequences/cars_320x240.i420"
    /// 320 * 240 * 3 / 2: one 4:2:0 frame of the clip.
    static let frameSize = 115_200

    @Test("cars_320x240.i420: 30 frames, each the file's bytes", .requiresMedia)
    func carsI420() throws {
        let bytes = try MediaFiles.bytes(Self.cars)
        var reader = try RawVideoReader(path: MediaFiles.url(Self.cars).path, width: 320, height: 240, format: .i420)
        #expect(reader.frameByteCount == Self.frameSize)
        var count = 0
        while let frame = try reader.nextFrame() {
            let start = count * Self.frameSize
            #expect(frame.packedBytes[...] == bytes[start..<(start + Self.frameSize)], "frame \(count)")
            count += 1
        }
        #expect(count == 30)
    }

    @Test("NV12 and NV21 made by ffmpeg read back to the original I420", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: [PixelFormat.nv12, .nv21, .yv12])
    func ffmpegLayouts(format: PixelFormat) async throws {
        let source = MediaFiles.url(Self.cars).path
        let filter = format == .yv12 ? ["-vf", "shuffleplanes=0:2:1", "-pix_fmt", "yuv420p"] : ["-pix_fmt", format.ffmpegName]
        let output = try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240",
                                                       "-i", source, "-frames:v", "5"] + filter + ["-f", "rawvideo", "-"])
        let original = try MediaFiles.bytes(Self.cars)
        var reader = try RawVideoReader(data: [UInt8](output.standardOutput), width: 320, height: 240, format: format)
        var count = 0
        while let frame = try reader.nextFrame() {
            #expect(frame.format == format)
            let start = count * Self.frameSize
            #expect(frame.converted(to: .i420).packedBytes[...] == original[start..<(start + Self.frameSize)], "frame \(count)")
            count += 1
        }
        #expect(count == 5)
    }

    @Test("a trailing partial frame is reported after the complete ones", .requiresMedia)
    func trailingPartialFrame() throws {
        let bytes = try MediaFiles.bytes(Self.cars)
        let cut = 2 * Self.frameSize + 76_801
        var reader = try RawVideoReader(data: Array(bytes[..<cut]), width: 320, height: 240, format: .nv12)
        #expect(try reader.nextFrame() != nil)
        #expect(try reader.nextFrame() != nil)
        #expect(throws: RawVideoError.truncatedFrame(frameIndex: 2, byteOffset: 2 * Self.frameSize, expectedBytes: Self.frameSize,
                                                     availableBytes: 76_801)) {
            try reader.nextFrame()
        }
        #expect(try reader.nextFrame() == nil)
    }

    @Test("sizes outside the limits are refused")
    func invalidSizes() throws {
        #expect(throws: RawVideoError.invalidSize(width: 0, height: 240)) {
            try RawVideoReader(data: [], width: 0, height: 240, format: .i420)
        }
        #expect(throws: RawVideoError.invalidSize(width: 1 << 40, height: 1 << 40)) {
            try RawVideoReader(data: [], width: 1 << 40, height: 1 << 40, format: .i420)
        }
        var empty = try RawVideoReader(data: [], width: 2, height: 2, format: .yv12)
        #expect(try empty.nextFrame() == nil)
    }
}

import Foundation
import MediaCore
import POSIX
import Testing
import TestSupport
@testable import Capture

/// The capture time burnt into a picture (``CaptureTimecode``) is read back after a real encoder and decoder: x264 at
/// a low rate, then ffmpeg's decoder, as a browser's would get it.
struct CaptureTimecodeTests {
    @Test("A stamped picture reads back its milliseconds; an unstamped one reads back nothing", arguments: PixelFormat.allCases)
    func roundTrip(format: PixelFormat) throws {
        let camera = try SyntheticCamera(width: 320, height: 240, format: format, realTime: false)
        var picture = camera.frame(at: 7).pixelBuffer
        #expect(CaptureTimecode.read(from: picture) == nil, "the test pattern alone is no timecode")
        let stamp = CaptureTimecode(milliseconds: 1_796_000_123_456)
        stamp.stamp(into: &picture)
        #expect(CaptureTimecode.read(from: picture) == stamp)
        #expect(stamp.milliseconds == 1_796_000_123_456 % (1 << 40), "40 bits are kept")
    }

    @Test("One block flipped is noticed (the start mark or the check nibble), never read as another time")
    func flippedBlockIsNoticed() throws {
        var picture = PixelBuffer(width: 240, height: 120, format: .i420)
        CaptureTimecode(milliseconds: 123_456_789).stamp(into: &picture)
        let side = CaptureTimecode.blockSide(forWidth: 240)
        let top = (120 - 2 * side) & ~1
        for block in [0, 9, 30, 47] {
            var damaged = picture
            let x = block % 24 * side + side / 2, y = top + block / 24 * side + side / 2
            let index = y * damaged.planes[0].bytesPerRow + x
            let value: UInt8 = damaged.planes[0].bytes[index] > 128 ? 16 : 235
            for row in y - side / 2..<y + side / 2 {
                for column in x - side / 2..<x + side / 2 { damaged.planes[0].bytes[row * damaged.planes[0].bytesPerRow + column] = value }
            }
            #expect(CaptureTimecode.read(from: damaged) == nil, "block \(block)")
        }
    }

    @Test("A delivered frame of a camera that stamps carries the wall-clock time it was handed out at")
    func cameraStampsDeliveryTime() async throws {
        let camera = try SyntheticCamera(width: 320, height: 240, frameRate: 30, realTime: false, frameLimit: 3, stampsCaptureTime: true)
        let before = UInt64(RealTimeClock.millisecondsSinceEpoch()) % (1 << 40)
        let frame = try #require(try await camera.nextFrame())
        let after = UInt64(RealTimeClock.millisecondsSinceEpoch()) % (1 << 40)
        let stamped = try #require(CaptureTimecode.read(from: frame.pixelBuffer))
        #expect(stamped.milliseconds >= before && stamped.milliseconds <= after, "\(before) ≤ \(stamped.milliseconds) ≤ \(after)")
    }

    @Test("x264 at 150 kbit/s (320x240), decoded by ffmpeg: every picture's timecode reads back exactly",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func survivesCompression() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let camera = try SyntheticCamera(width: 320, height: 240, format: .i420, realTime: false)
        var raw: [UInt8] = []
        var stamps: [CaptureTimecode] = []
        for index in 0..<30 {
            var picture = camera.frame(at: Int64(index)).pixelBuffer
            let stamp = CaptureTimecode(milliseconds: 1_796_000_000_000 + UInt64(index) * 33 + UInt64(index * index))
            stamp.stamp(into: &picture)
            stamps.append(stamp)
            raw += picture.packedBytes
        }
        let input = directory.appendingPathComponent("in.yuv"), encoded = directory.appendingPathComponent("out.h264")
        try Data(raw).write(to: input)
        _ = try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240", "-r", "30",
                                                    "-i", input.path, "-c:v", "libx264", "-b:v", "150k", "-preset", "veryfast",
                                                    "-tune", "zerolatency", "-y", encoded.path])
        let decoded = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", encoded.path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let bytes = [UInt8](decoded.standardOutput)
        let size = 320 * 240 * 3 / 2
        #expect(bytes.count == 30 * size)
        var read: [CaptureTimecode?] = []
        for index in 0..<bytes.count / size {
            let start = index * size
            let picture = try PixelBuffer(width: 320, height: 240, format: .i420, planes: [
                .init(bytes: Array(bytes[start..<start + 76_800]), bytesPerRow: 320, rowLength: 320, rowCount: 240),
                .init(bytes: Array(bytes[start + 76_800..<start + 96_000]), bytesPerRow: 160, rowLength: 160, rowCount: 120),
                .init(bytes: Array(bytes[start + 96_000..<start + size]), bytesPerRow: 160, rowLength: 160, rowCount: 120),
            ])
            read.append(CaptureTimecode.read(from: picture))
        }
        #expect(read == stamps.map(Optional.some))
    }
}

import Foundation
import MediaCore
import Testing
@testable import Capture

/// The synthetic camera: geometry, timestamps, motion, the burnt-in counter, pacing and drops, stopping.
@Suite("Synthetic camera")
struct SyntheticCameraTests {
    @Test("frames have the asked size and layout, in every layout", arguments: PixelFormat.allCases)
    func sizeAndFormat(format: PixelFormat) async throws {
        let camera = try SyntheticCamera(width: 322, height: 182, frameRate: 25, format: format, realTime: false)
        let frame = try #require(try await camera.nextFrame())
        #expect(frame.pixelBuffer.width == 322 && frame.pixelBuffer.height == 182)
        #expect(frame.pixelBuffer.format == format)
        #expect(frame.pixelBuffer.planes.count == format.planeCount)
        // 4:2:0 plane geometry (PixelFormat's definition): luma 322x182, chroma 161x91 samples.
        #expect(frame.pixelBuffer.planes[0].rowLength == 322 && frame.pixelBuffer.planes[0].rowCount == 182)
        let chromaRow = format.planeCount == 2 ? 2 * 161 : 161
        #expect(frame.pixelBuffer.planes[1].rowLength == chromaRow && frame.pixelBuffer.planes[1].rowCount == 91)
        #expect(camera.name == "synthetic camera 322x182@25")
    }

    @Test("the default camera is 640x480 NV12 at 30 fps, like an iPhone camera")
    func defaults() async throws {
        let camera = try SyntheticCamera(realTime: false)
        #expect(camera.width == 640 && camera.height == 480 && camera.format == .nv12 && camera.frameRate == 30)
        #expect(camera.name == "synthetic camera 640x480@30")
        #expect(camera.description == camera.name)
        let frame = try #require(try await camera.nextFrame())
        #expect(frame.pixelBuffer.format == .nv12)
    }

    @Test("odd sizes render without trouble")
    func oddSizes() async throws {
        for (width, height) in [(1, 1), (3, 5), (17, 9), (641, 479)] {
            let camera = try SyntheticCamera(width: width, height: height, realTime: false)
            let frame = try #require(try await camera.nextFrame())
            #expect(frame.pixelBuffer.width == width && frame.pixelBuffer.height == height)
        }
    }

    @Test("pts advance by exactly one frame period; duration is one period")
    func timestamps() async throws {
        let camera = try SyntheticCamera(frameRate: 30, realTime: false)
        var previous: MediaTime?
        for index in 0..<40 {
            let frame = try #require(try await camera.nextFrame())
            #expect(frame.pts == MediaTime(value: Int64(index), timescale: 30))
            #expect(frame.duration == MediaTime(value: 1, timescale: 30))
            if let previous { #expect(frame.pts - previous == MediaTime(value: 1, timescale: 30)) }
            previous = frame.pts
        }
        // NTSC rate: 30000/1001, pts n * 1001 / 30000, no drift.
        let ntsc = try SyntheticCamera(width: 64, height: 48, frameDuration: MediaTime(value: 1001, timescale: 30000),
                                       realTime: false)
        #expect(ntsc.name == "synthetic camera 64x48@29.97")
        #expect(ntsc.frame(at: 3000).pts == MediaTime(value: 3000 * 1001, timescale: 30000))
        #expect(await ntsc.droppedFrameCount == 0)
    }

    @Test("the picture changes from frame to frame, and is the same for the same frame number")
    func motion() async throws {
        let camera = try SyntheticCamera(realTime: false)
        let first = try #require(try await camera.nextFrame()).pixelBuffer
        let second = try #require(try await camera.nextFrame()).pixelBuffer
        #expect(first.planes[0].bytes != second.planes[0].bytes)
        #expect(first.planes[1].bytes != second.planes[1].bytes)
        // A bars row below the text panel scrolls.
        #expect(first.planes[0].row(200) != second.planes[0].row(200))
        // Deterministic: another camera renders frame 1 identically.
        let again = try SyntheticCamera(realTime: false).frame(at: 1).pixelBuffer
        #expect(again == second)
    }

    @Test("the burnt-in counter shows different digits for frame 0 and frame 12")
    func counterDigits() throws {
        let camera = try SyntheticCamera(realTime: false)
        let pattern = TestPattern(width: 640, height: 480, format: .nv12, range: .video)
        let rect = pattern.counterRect
        func region(_ buffer: PixelBuffer, cell: Int) -> [UInt8] {
            let cellWidth = DigitFont.glyphWidth * pattern.textScale
            let x = rect.x + cell * DigitFont.advance * pattern.textScale
            return (rect.y..<(rect.y + rect.height)).flatMap { row in
                buffer.planes[0].bytes[(row * buffer.planes[0].bytesPerRow + x)..<(row * buffer.planes[0].bytesPerRow + x + cellWidth)]
            }
        }
        let frame0 = camera.frame(at: 0).pixelBuffer, frame12 = camera.frame(at: 12).pixelBuffer
        // "000000" vs "000012": the first four digit cells are equal, the last two differ.
        for cell in 0..<4 { #expect(region(frame0, cell: cell) == region(frame12, cell: cell), "cell \(cell)") }
        for cell in 4..<6 { #expect(region(frame0, cell: cell) != region(frame12, cell: cell), "cell \(cell)") }
        // Each digit cell holds lit (white, 235) and unlit (black, 16) samples: text, not background.
        for cell in 0..<6 {
            let samples = Set(region(frame12, cell: cell))
            #expect(samples == [16, 235], "cell \(cell) holds \(samples.sorted())")
        }
        #expect(TestPattern.counterText(12) == Array("000012".utf8))
        #expect(TestPattern.clockText(MediaTime(value: 12, timescale: 30)) == Array("00:00:00.400".utf8))
        #expect(TestPattern.clockText(MediaTime(value: 3_723_456, timescale: 1000)) == Array("01:02:03.456".utf8))
    }

    @Test("the clock differs between frame 0 and frame 12")
    func clockDigits() throws {
        let camera = try SyntheticCamera(realTime: false)
        let rect = TestPattern(width: 640, height: 480, format: .nv12, range: .video).clockRect
        let rows = { (buffer: PixelBuffer) in
            (rect.y..<(rect.y + rect.height)).map { Array(Array(buffer.planes[0].row($0))[rect.x..<(rect.x + rect.width)]) }
        }
        #expect(rows(camera.frame(at: 0).pixelBuffer) != rows(camera.frame(at: 12).pixelBuffer))
        #expect(rows(camera.frame(at: 12).pixelBuffer) == rows(try SyntheticCamera(realTime: false).frame(at: 12).pixelBuffer))
    }

    @Test("real-time pacing: 15 frames at 30 fps take at least 0.45 s", .needsRealTime)
    func pacing() async throws {
        let camera = try SyntheticCamera(width: 160, height: 120, frameRate: 30)
        let clock = ContinuousClock()
        let start = clock.now
        var delivered: [MediaTime] = []
        for _ in 0..<15 { delivered.append(try #require(try await camera.nextFrame()).pts) }
        let elapsed = clock.now - start
        // Frame 14 falls at 14/30 s ≈ 0.467 s after frame 0 (lower bound only).
        #expect(elapsed >= .milliseconds(450), "took \(elapsed)")
        // Every frame was delivered or counted as dropped.
        let last = try #require(delivered.last)
        #expect(Int(last.value) + 1 == delivered.count + (await camera.droppedFrameCount))
    }

    @Test("a late consumer makes the camera drop and count frames, and the pts show the gap", .needsRealTime)
    func lateConsumerDrops() async throws {
        let camera = try SyntheticCamera(width: 160, height: 120, frameRate: 30)
        var indices: [Int64] = []
        for _ in 0..<5 {
            let frame = try #require(try await camera.nextFrame())
            #expect(frame.pts.timescale == 30)
            indices.append(frame.pts.value)
            try await Task.sleep(for: .milliseconds(100))  // three frame periods
        }
        let dropped = await camera.droppedFrameCount
        #expect(dropped > 0)
        // Every frame number up to the last one delivered was either delivered or counted as dropped.
        let last = try #require(indices.last)
        #expect(Int(last) + 1 == indices.count + dropped, "delivered \(indices), dropped \(dropped)")
        #expect(indices == indices.sorted() && Set(indices).count == indices.count)
        #expect(await camera.deliveredFrameCount == 5)
    }

    @Test("the frame limit ends the stream with nil")
    func frameLimit() async throws {
        let camera = try SyntheticCamera(width: 32, height: 32, realTime: false, frameLimit: 3)
        var count = 0
        while try await camera.nextFrame() != nil { count += 1 }
        #expect(count == 3)
        #expect(try await camera.nextFrame() == nil)
    }

    @Test("stop() ends a pending wait, and later calls return nil", .needsRealTime, .timeLimit(.minutes(5)))
    func stopEndsTheStream() async throws {
        // One frame an hour: after frame 0, the next wait would last an hour unless stop() ends it.
        let camera = try SyntheticCamera(width: 32, height: 32, frameDuration: MediaTime(value: 3600, timescale: 1))
        #expect(try await camera.nextFrame() != nil)
        let pending = Task { try await camera.nextFrame() }
        try await Task.sleep(for: .milliseconds(50))
        await camera.stop()
        #expect(try await pending.value == nil)
        #expect(try await camera.nextFrame() == nil)
    }

    @Test("cancelling the waiting task ends the stream", .needsRealTime, .timeLimit(.minutes(5)))
    func cancellationEndsTheStream() async throws {
        let camera = try SyntheticCamera(width: 32, height: 32, frameDuration: MediaTime(value: 3600, timescale: 1))
        #expect(try await camera.nextFrame() != nil)
        let pending = Task { try await camera.nextFrame() }
        try await Task.sleep(for: .milliseconds(50))
        pending.cancel()
        #expect(try await pending.value == nil)
    }

    @Test("out-of-range parameters are rejected with the parameter's name")
    func invalidConfiguration() {
        #expect(throws: CaptureError.invalidConfiguration(parameter: "width", reason: "is 0; allowed 1…16384")) {
            try SyntheticCamera(width: 0)
        }
        #expect(throws: CaptureError.invalidConfiguration(parameter: "frameRate", reason: "is 0; allowed 1…1000 frames per second")) {
            try SyntheticCamera(frameRate: 0)
        }
        #expect(throws: CaptureError.self) { try SyntheticCamera(height: 20000) }
        #expect(throws: CaptureError.self) { try SyntheticCamera(width: 8, height: 8, frameDuration: MediaTime(value: 1, timescale: 5000)) }
        #expect(throws: CaptureError.self) { try SyntheticCamera(frameLimit: -1) }
    }
}

import CodecInterface
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport

/// Rate control under the oracle: 300 frames at 1 Mbit/s land within ±5 % of the target; no window of
/// the stream breaks its data-rate limits (sizes as ffprobe reads them), and the stream, whose QP
/// changes from picture to picture and from macroblock to macroblock, still decodes bit-exactly.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg") || ProcessInfo.processInfo.environment["CI"] == "true"))
struct RateControlTests {
    /// The inputs: natural sequences and the synthetic camera; the long runs use the QCIF ones (176x144),
    /// so a 300-frame run stays short in a debug build.
    enum Input: String, CaseIterable, CustomStringConvertible {
        case foremanCIF, foremanQCIF, cars, camera, cameraQCIF

        var description: String { rawValue }

        func frames(count: Int) async throws -> [PixelBuffer] {
            switch self {
            case .foremanCIF:
                return RateControlOracle.pingPong(try RateControlOracle.y4mFrames(MediaFiles.url("sequences/foreman_cif8.y4m").path), count: count)
            case .foremanQCIF:
                return RateControlOracle.pingPong(try RateControlOracle.y4mFrames(MediaFiles.url("sequences/foreman_qcif8.y4m").path), count: count)
            case .cars:
                return RateControlOracle.pingPong(try RateControlOracle.rawFrames(MediaFiles.url("sequences/cars_320x240.i420").path,
                                                                                  width: 320, height: 240), count: count)
            case .camera:
                return try await IntraEncoderBitExactnessTests.cameraFrames(width: 640, height: 480, count: count)
            case .cameraQCIF:
                return try await IntraEncoderBitExactnessTests.cameraFrames(width: 176, height: 144, count: count)
            }
        }
    }

    /// Writes the stream and the reconstruction, checks ffmpeg's framemd5 against ours, and returns the
    /// packet sizes ffprobe reads.
    func expectBitExact(_ encoded: RateControlOracle.Encoded, width: Int, height: Int, label: String) throws -> [Int] {
        try ReconstructionOracle.expectDecodes(encoded.stream, toReconstruction: encoded.reconstruction, width: width, height: height,
                                               frames: encoded.frameCount, label: label, inspect: RateControlOracle.packetSizes(of:))
    }

    /// 300 frames of foreman QCIF at 1 Mbit/s, and of the synthetic camera at QCIF at 150 kbit/s (at
    /// 176x144 it peaks near 290 kbit/s even at QP 1, so 1 Mbit/s would only test the QP floor; at
    /// 640x480 the same 300 frames take minutes in a debug build).
    @Test("300 frames land within ±5 % of the target and decode bit-exactly", .requiresMedia,
          arguments: [(Input.foremanQCIF, 1_000_000), (Input.cameraQCIF, 150_000)])
    func averageBitRate(input: Input, bitRate: Int) async throws {
        let frames = try await input.frames(count: 300)
        let (width, height) = (frames[0].width, frames[0].height)
        var encoder = try NativeH264Encoder(width: width, height: height, rateControl: .averageBitRate(bitRate),
                                            framesPerSecond: 30, keyFrameInterval: 30)
        let encoded = try RateControlOracle.encode(frames, with: &encoder)
        let sizes = try expectBitExact(encoded, width: width, height: height, label: "\(input)")
        #expect(sizes == encoded.pictureSizes, "ffprobe's packets are our pictures")
        let bitsPerSecond = Double(encoded.stream.count * 8) / (Double(frames.count) / 30)
        let error = bitsPerSecond / Double(bitRate) - 1
        print("rate control \(input) \(width)x\(height): \(Int(bitsPerSecond)) bit/s, \(String(format: "%+.2f", error * 100)) % of \(bitRate) bit/s; "
              + "QP \(encoded.quantisationParameters.min() ?? 0)…\(encoded.quantisationParameters.max() ?? 0)")
        #expect(abs(error) <= 0.05, "\(input): \(Int(bitsPerSecond)) bit/s is \(error * 100) % off \(bitRate) bit/s")
        #expect(Set(encoded.quantisationParameters).count > 1, "the picture QP follows the rate")
    }

    /// Foreman QCIF under two limits: its P pictures settle at QP 33…37 with the macroblock offsets, where
    /// the motion edges (bS 1) read tC0 at indexA 37 — the run that found Table 8-17's indexA 37 and 38
    /// entries wrong. Cars (320x240) under one. Two GOPs (60 frames) each: 31 windows of 1 s and 55 of 0.2 s.
    @Test("data-rate limits: no window of the stream exceeds them", .requiresMedia,
          arguments: [(Input.foremanQCIF, 1_000_000, [DataRateLimit(bytes: 150_000, seconds: 1), DataRateLimit(bytes: 40_000, seconds: 0.2)], 60),
                      (Input.cars, 1_000_000, [DataRateLimit(bytes: 90_000, seconds: 1)], 60)])
    func dataRateLimits(input: Input, bitRate: Int, limits: [DataRateLimit], frameCount: Int) async throws {
        let frames = try await input.frames(count: frameCount)
        let (width, height) = (frames[0].width, frames[0].height)
        var encoder = try NativeH264Encoder(width: width, height: height, rateControl: .averageBitRate(bitRate, dataRateLimits: limits),
                                            framesPerSecond: 30, keyFrameInterval: 30)
        let encoded = try RateControlOracle.encode(frames, with: &encoder)
        let sizes = try expectBitExact(encoded, width: width, height: height, label: "\(input) limits")
        #expect(sizes.count == frames.count)
        for limit in limits {
            // Frames at 30 per second: a window of `seconds` holds this many consecutive frames.
            let count = Int((limit.seconds * 30).rounded())
            let worst = RateControlOracle.largestWindow(sizes, count: count)
            print("limit \(limit.bytes) B / \(limit.seconds) s on \(input): worst window \(worst) B (\(String(format: "%.1f", Double(worst) / Double(limit.bytes) * 100)) %), "
                  + "average \(sizes.reduce(0, +) * 8 * 30 / sizes.count) bit/s")
            #expect(worst <= limit.bytes, "a window of \(count) frames holds \(worst) bytes, over \(limit.bytes)")
        }
    }

    /// Macroblock QPs inside slices: QPY,PRED restarts at SliceQPY at each slice (§7.4.5), so a decoder
    /// only gets our pictures if every slice's mb_qp_delta chain starts there; on threads each worker's
    /// coder carries its own QP state and the bytes equal one thread's.
    @Test("adaptive QP inside slices and on threads: bit-exact, same bytes on 1 and 2 threads", .requiresMedia,
          arguments: [NativeH264Encoder.SliceLayout.count(5), .maximumBytes(700)])
    func slices(layout: NativeH264Encoder.SliceLayout) async throws {
        let frames = try await Input.foremanQCIF.frames(count: 20)
        func run(threads: Int) throws -> RateControlOracle.Encoded {
            var encoder = try NativeH264Encoder(width: 176, height: 144, rateControl: .averageBitRate(500_000), framesPerSecond: 30,
                                                keyFrameInterval: 10, sliceLayout: layout, threadCount: threads)
            return try RateControlOracle.encode(frames, with: &encoder)
        }
        let single = try run(threads: 1)
        let sizes = try expectBitExact(single, width: 176, height: 144, label: "slices \(layout)")
        #expect(sizes.count == frames.count)
        #expect(Set(single.quantisationParameters).count > 1, "the picture QP follows the rate")
        let threaded = try run(threads: 2)
        #expect(threaded.stream == single.stream && threaded.reconstruction == single.reconstruction, "\(layout): 2 threads differ from 1")
    }

    /// On foreman QCIF (a third of the samples of the 320x240 camera this once ran on).
    @Test("a live bit-rate change moves the rate of the frames after it", .requiresMedia)
    func liveBitRateChange() async throws {
        let frames = try await Input.foremanQCIF.frames(count: 180)
        var encoder = try NativeH264Encoder(width: 176, height: 144, rateControl: .averageBitRate(1_000_000), keyFrameInterval: 60)
        let encoded = try RateControlOracle.encode(frames, with: &encoder) { index, encoder in
            if index == 90 { try encoder.setAverageBitRate(250_000) }
        }
        _ = try expectBitExact(encoded, width: 176, height: 144, label: "live change")
        let before = encoded.pictureSizes[30..<90].reduce(0, +) * 8 / 2, after = encoded.pictureSizes[120..<180].reduce(0, +) * 8 / 2
        print("live change: \(before) bit/s before, \(after) bit/s after (1 M → 250 k)")
        #expect(after * 2 < before, "\(after) bit/s after the change vs \(before) before")
        #expect(abs(Double(after) / 250_000 - 1) < 0.25, "\(after) bit/s after the change to 250 kbit/s")
    }

    @Test("bad rate-control values are refused with the value")
    func refusals() {
        #expect(throws: NativeH264EncoderError.bitRateOutOfRange(0)) {
            _ = try NativeH264Encoder(width: 64, height: 64, rateControl: .averageBitRate(0))
        }
        #expect(throws: NativeH264EncoderError.dataRateLimitOutOfRange(bytes: 0, seconds: 1)) {
            _ = try NativeH264Encoder(width: 64, height: 64, rateControl: .averageBitRate(1000, dataRateLimits: [DataRateLimit(bytes: 0, seconds: 1)]))
        }
        #expect(throws: NativeH264EncoderError.quantisationParameterOutOfRange(52)) {
            _ = try NativeH264Encoder(width: 64, height: 64, rateControl: .constantQuantisationParameter(52))
        }
    }
}

import Codecs
import Containers
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport
#if FFmpeg
import FFmpegEngine
#endif

/// Live bit-rate changes of ``AudioEncoderSession`` (`setBitRate`): an AAC stream encoded at 128 kbit/s that
/// switches to 32 kbit/s halfway must follow the new rate from the switch on and stay one clean stream, which
/// FFmpeg decodes with `-err_detect explode` (any damage is an error).
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg") || ExternalTool.isCI))
struct AudioRateChangeTests {
    /// 6 s of dense stereo material at 48 kHz, in the chunks of 960 samples a 20 ms microphone callback gives:
    /// a chord with vibrato, a pulsing noise band and a click every 0.25 s, so both rates are spent in full.
    static func chunks() throws -> [AudioBuffer] {
        let rate = 48000, total = 6 * 48000, chunk = 960
        var state: UInt32 = 0x2468_ACE1
        var buffers: [AudioBuffer] = []
        for start in stride(from: 0, to: total, by: chunk) {
            var left = [Float](), right = [Float]()
            for n in start..<min(start + chunk, total) {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Float(Int32(bitPattern: state)) / Float(Int32.max)
                let t = Double(n) / Double(rate)
                let chord = 0.15 * sin(2 * Double.pi * 261.6 * t + 0.3 * sin(2 * Double.pi * 5 * t))
                    + 0.1 * sin(2 * Double.pi * 329.6 * t) + 0.08 * sin(2 * Double.pi * 1567 * t)
                let pulse = Float(0.5 + 0.5 * sin(2 * Double.pi * 1.5 * t))
                let click: Float = n % 12000 < 96 ? 0.4 : 0
                left.append(Float(chord) + 0.12 * pulse * noise + click)
                right.append(Float(chord * 0.8) + 0.12 * (1 - pulse) * noise - click)
            }
            let interleaved = zip(left, right).flatMap { [$0, $1] }
            buffers.append(try AudioBuffer(sampleRate: rate, channelCount: 2, format: .float32, isInterleaved: true,
                                           channelData: [interleaved.withUnsafeBytes { [UInt8]($0) }]))
        }
        return buffers
    }

    /// The engines that encode AAC in this build.
    static var engines: [String] {
        #if FFmpeg
        ["native", "aac"]
        #else
        ["native"]
        #endif
    }

    static func registry(for engine: String) throws -> CodecEngineRegistry {
        if engine == "native" { return CodecEngineRegistry(engines: [NativeCodecEngine()]) }
        #if FFmpeg
        let probed = FFmpegEngines.probe()
        return CodecEngineRegistry(engines: [try #require(probed.first { $0.name == engine }, "no engine \(engine)")])
        #else
        throw CodecError.noEngine(engine)
        #endif
    }

    @Test("128 kbit/s, then 32 kbit/s from the middle: each half within ±10 % of its rate, one clean stream",
          arguments: engines)
    func switchesRateMidway(engine: String) async throws {
        let session = try AudioEncoderSession(configuration: AudioEncoderConfiguration(sampleRate: 48000, channelCount: 2,
                                                                                      bitRate: 128_000),
                                              registry: try Self.registry(for: engine))
        let collecting = Task {
            var frames: [EncodedAudioFrame] = []
            for await frame in session.outputs { frames.append(frame) }
            return frames
        }
        let chunks = try Self.chunks()
        var switchSample: Int64 = 0
        for (index, chunk) in chunks.enumerated() {
            if index == chunks.count / 2 {
                try await session.setBitRate(32000)
                switchSample = Int64(index * 960)
            }
            try await session.encode(chunk)
        }
        #expect(session.currentBitRate == 32000)
        _ = try await session.close()
        let frames = await collecting.value

        // Frames wholly before the switch (less the first half second, while the reservoir fills) and wholly after
        // it (less the first half second, while the encoder settles and the reservoir adapts).
        func rate(_ selected: [EncodedAudioFrame]) -> Double {
            Double(selected.reduce(0) { $0 + $1.data.count } * 8) * 48000 / Double(max(selected.count, 1) * 1024)
        }
        let before = frames.filter { $0.pts.value >= 24000 && $0.pts.value + 1024 <= switchSample }
        let after = frames.filter { $0.pts.value >= switchSample + 24000 && $0.pts.value + 1024 <= 6 * 48000 }
        let rateBefore = rate(before), rateAfter = rate(after)
        #expect(abs(rateBefore / 128_000 - 1) <= 0.1, "\(engine): \(Int(rateBefore)) bit/s before the switch")
        #expect(abs(rateAfter / 32000 - 1) <= 0.1, "\(engine): \(Int(rateAfter)) bit/s after the switch")
        #expect(before.count > 80 && after.count > 80)
        print("\(engine): \(Int(rateBefore)) bit/s before the switch, \(Int(rateAfter)) after")

        // One stream: consecutive pts, and FFmpeg decodes it with any error fatal and no error reported.
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts })
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("switch-\(engine).aac")
        var writer = try ADTSWriter(path: url.path)
        for frame in frames { try writer.write(frame) }
        try writer.finish()
        let decoded = try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", url.path,
                                                        "-f", "s16le", "-"])
        #expect(decoded.standardError.isEmpty, "\(engine): ffmpeg said \(decoded.standardError)")
        #expect(decoded.standardOutput.count == frames.count * 1024 * 2 * 2)
    }

    @Test("A rate of zero is refused by the session's rules; a closed session refuses any change")
    func refusals() async throws {
        let session = try AudioEncoderSession(configuration: AudioEncoderConfiguration(sampleRate: 48000, channelCount: 1,
                                                                                      bitRate: 64000),
                                              registry: try Self.registry(for: "native"))
        await #expect(throws: CodecError.invalidConfiguration(property: .bitRate, reason: "must be positive, got 0")) {
            try await session.setBitRate(0)
        }
        #expect(session.currentBitRate == 64000)
        _ = try await session.close()
        await #expect(throws: CodecError.sessionClosed) { try await session.setBitRate(48000) }
    }
}

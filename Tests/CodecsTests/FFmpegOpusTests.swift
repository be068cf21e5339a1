import Codecs
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport
#if FFmpeg
import FFmpegEngine
#endif

/// Opus through the FFmpeg engine (libopus encoder, FFmpeg's `opus` decoder), checked with ffprobe and ffmpeg:
/// the priming reported like AAC's, the frames in an MP4 ffmpeg reads and decodes without error, our decoder's PCM
/// against ffmpeg's, and a live rate change. In a build without the engine, the registry names Opus and what is
/// missing.
@Suite("Opus through the codec layer")
struct FFmpegOpusTests {
    static let configuration = AudioEncoderConfiguration.opus(channelCount: 2, bitRate: 96_000)

    #if FFmpeg
    /// Encodes the sine chunks of the AAC tests (2 s, 48 kHz stereo, four PCM layouts) at `bitRate`.
    static func encode(bitRate: Int = 96_000, channels: Int = 2) throws -> (format: AudioFormatDescription, frames: [EncodedAudioFrame]) {
        let encoder = try FFmpegTestSupport.engine("opus").makeAudioEncoder(.opus(channelCount: 2, bitRate: bitRate))
        var frames: [EncodedAudioFrame] = []
        for chunk in try FFmpegAACTests.sineChunks() { frames += try encoder.encode(chunk) }
        frames += try encoder.flush()
        return (encoder.format, frames)
    }

    @Test("2 s of sine → 20 ms Opus packets, 312 samples of pre-skip reported as encoderDelay and as the first pts",
          .enabled(if: FFmpegTestSupport.toolsAvailable))
    func encodesWithPriming() throws {
        let (format, frames) = try Self.encode()
        #expect(format.codec == .opus && format.sampleRate == 48000 && format.channelCount == 2)
        #expect(format.samplesPerFrame == 960)
        #expect(format.encoderDelay == 312)
        // The OpusHead (RFC 7845 §5.1) libopus gives: its pre-skip is the same 312.
        let head = format.audioSpecificConfig
        #expect(head.count == 19 && Array(head.prefix(8)) == Array("OpusHead".utf8))
        #expect(Int(head[10]) | Int(head[11]) << 8 == 312)
        #expect(frames.first?.pts.value == -312)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts })
        #expect(frames.allSatisfy { $0.duration.value == 960 || $0 == frames.last })
        let covered = frames.reduce(0) { $0 + $1.duration.value } - 312
        #expect(covered >= 96000 && covered < 96000 + 960, "frames cover \(covered) samples after the pre-skip")
    }

    @Test("Opus frames in an MP4 (Opus + dOps, edit list): ffprobe reads opus 48 kHz stereo 2 s, ffmpeg decodes with explode",
          .enabled(if: FFmpegTestSupport.toolsAvailable), arguments: [false, true])
    func mp4ReadByFFmpeg(fragmented: Bool) async throws {
        let (format, frames) = try Self.encode()
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent(fragmented ? "opus-frag.mp4" : "opus.mp4").path
        if fragmented {
            var writer = try FragmentedMP4Writer(path: path, tracks: [.audio(format)])
            for frame in frames { try writer.append(frame, toTrack: 0) }
            try writer.finish()
        } else {
            var writer = try MP4Writer(path: path, tracks: [.audio(format)])
            for frame in frames { try writer.append(frame, toTrack: 0) }
            try writer.finish()
        }
        let url = URL(fileURLWithPath: path)
        let info = try FFmpegTestSupport.streamInfo(url, kind: "a", entries: "codec_name,sample_rate,channels")
        #expect(info["codec_name"] == "opus")
        #expect(info["sample_rate"] == "48000")
        #expect(info["channels"] == "2")
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
        // The decoded length: 2 s after the pre-skip (the classic file's edit list and dOps both skip it).
        let decoded = try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path,
                                                              "-f", "f32le", "-ac", "2", "-"])
        let samples = decoded.standardOutput.count / 8
        #expect(abs(samples - 96000) < 960, "ffmpeg decodes \(samples) samples")
        // And our reader gives the same packets back.
        let file = try MP4File(contentsOf: path)
        let track = try #require(file.tracks.first)
        guard case let .audio(read) = track.format else { Issue.record("not audio: \(track.format)"); return }
        #expect(read.codec == .opus && read.channelCount == 2 && read.encoderDelay == 312)
        let payloads = file.samples(of: track).map { Array($0.data) }
        #expect(payloads == frames.map(\.data))
    }

    @Test("our Opus decoder gives ffmpeg's PCM for the same packets", .enabled(if: FFmpegTestSupport.toolsAvailable))
    func decodeMatchesFFmpeg() async throws {
        let (format, frames) = try Self.encode()
        let decoder = try FFmpegTestSupport.engine("opus").makeAudioDecoder(format)
        var ours: [Float] = []
        for frame in frames {
            for buffer in try decoder.decode(frame) {
                let planes = buffer.planarFloat32
                for index in 0..<buffer.frameCount { ours += [planes[0][index], planes[1][index]] }
            }
        }
        for buffer in try decoder.flush() {
            let planes = buffer.planarFloat32
            for index in 0..<buffer.frameCount { ours += [planes[0][index], planes[1][index]] }
        }
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("opus-decode.mp4").path
        var writer = try MP4Writer(path: path, tracks: [.audio(format)])
        for frame in frames { try writer.append(frame, toTrack: 0) }
        try writer.finish()
        let output = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", "f32le", "-"])
        let theirs = output.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // FFmpeg's opus decoder skips the OpusHead's pre-skip itself (its `delay`), so both start at the first input
        // sample; ffmpeg's output ends where the edit list ends, ours at the last packet's end.
        #expect(ours.count >= theirs.count && theirs.count >= 2 * 95_000, "ours \(ours.count) values, ffmpeg's \(theirs.count)")
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-5, "largest difference \(worst)")
    }

    @Test("a live rate change is refused as unsupported (FFmpeg's libopus wrapper takes its rate at opening); the rate and stream go on",
          .enabled(if: FFmpegTestSupport.toolsAvailable))
    func liveRateChangeRefused() async throws {
        let session = try AudioEncoderSession(configuration: .opus(channelCount: 2, bitRate: 128_000),
                                              registry: CodecEngineRegistry(engines: [try FFmpegTestSupport.engine("opus")]))
        let collecting = Task {
            var frames: [EncodedAudioFrame] = []
            for await frame in session.outputs { frames.append(frame) }
            return frames
        }
        let chunks = try AudioRateChangeTests.chunks()
        for (index, chunk) in chunks.enumerated() {
            if index == chunks.count / 2 {
                await #expect(throws: CodecError.self) { try await session.setBitRate(24_000) }
                #expect(session.currentBitRate == 128_000)
            }
            try await session.encode(chunk)
        }
        _ = try await session.close()
        let frames = await collecting.value
        // The rate it was opened with, measured over the packets after the first half second (the encoder settles).
        let settled = frames.filter { $0.pts.value >= 24000 }
        let rate = Double(settled.reduce(0) { $0 + $1.data.count } * 8) * 48000 / Double(max(settled.count, 1) * 960)
        #expect(abs(rate / 128_000 - 1) <= 0.15, "\(Int(rate)) bit/s")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts })
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("opus-rate.mp4").path
        var writer = try MP4Writer(path: path, tracks: [.audio(try #require(frames.first).format)])
        for frame in frames { try writer.append(frame, toTrack: 0) }
        try writer.finish()
        #expect(try FFmpegTestSupport.decodeErrors(URL(fileURLWithPath: path)) == "")
    }
    #else
    @Test("without the FFmpeg engine, asking for Opus fails naming Opus, libopus and the missing engine")
    func pureBuildNamesTheMissingEngine() throws {
        do {
            _ = try CodecEngineRegistry.default.audioEncoderEngine(for: Self.configuration)
            Issue.record("a pure build found an Opus encoder")
        } catch {
            let text = "\(error)"
            #expect(text.contains("opus") && text.contains("libopus") && text.contains("FFmpeg engine"), "\(text)")
        }
    }
    #endif

    @Test("Opus configurations: 48 kHz only, mono or stereo, 6...510 kbit/s")
    func configurationRules() {
        #expect(throws: CodecError.self) { try AudioEncoderConfiguration.opus(channelCount: 2, bitRate: 96_000, sampleRate: 44100).validate() }
        #expect(throws: CodecError.self) { try AudioEncoderConfiguration.opus(channelCount: 6, bitRate: 96_000).validate() }
        #expect(throws: CodecError.self) { try AudioEncoderConfiguration.opus(channelCount: 2, bitRate: 1000).validate() }
        #expect(throws: Never.self) { try AudioEncoderConfiguration.opus(channelCount: 1, bitRate: 32_000).validate() }
    }
}

extension AudioEncoderConfiguration {
    /// An Opus configuration for these tests.
    static func opus(channelCount: Int, bitRate: Int, sampleRate: Int = 48000) -> AudioEncoderConfiguration {
        var configuration = AudioEncoderConfiguration(sampleRate: sampleRate, channelCount: channelCount, bitRate: bitRate)
        configuration.codec = .opus
        return configuration
    }
}

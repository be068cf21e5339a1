import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// WAVWriter checked by ffprobe and ffmpeg: the files we write are read with the right format, rate,
/// channels and length, and decode to the samples we wrote.
@Suite("WAVWriter")
struct WAVWriterTests {
    /// ffprobe's view of the first audio stream.
    static func probe(_ path: String) throws -> [String: String] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                        "stream=codec_name,sample_rate,channels,duration_ts", "-of",
                                                        "default=noprint_wrappers=1", path])
        var values: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return values
    }

    /// Interleaved raw samples of a 0.1 s sine made by ffmpeg (`s16le` or `f32le`).
    static func ffmpegSine(format: String, sampleRate: Int, channels: Int) throws -> [UInt8] {
        [UInt8](try ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=1000:duration=0.1:sample_rate=\(sampleRate)",
                                                  "-ac", "\(channels)", "-f", format, "-"]).standardOutput)
    }

    @Test("PCM 16 and float 32, 1–3 channels: ffprobe reads the format, ffmpeg decodes our samples",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")),
          arguments: [(SampleFormat.int16, 1), (.int16, 2), (.float32, 1), (.float32, 2), (.int16, 3), (.float32, 3)])
    func ffprobeReadsOurs(sampleFormat: SampleFormat, channels: Int) async throws {
        let raw = sampleFormat == .int16 ? "s16le" : "f32le"
        let samples = try Self.ffmpegSine(format: raw, sampleRate: 22050, channels: channels)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ours.wav").path
        var writer = try WAVWriter(path: path, sampleRate: 22050, channelCount: channels, sampleFormat: sampleFormat)
        // Three blocks of unequal size.
        let frameBytes = channels * sampleFormat.byteCount
        let cuts = [0, 700 * frameBytes, 1500 * frameBytes, samples.count]
        for index in 0..<3 {
            try writer.write(AudioBuffer(sampleRate: 22050, channelCount: channels, format: sampleFormat, isInterleaved: true,
                                         channelData: [Array(samples[cuts[index]..<cuts[index + 1]])]))
        }
        try writer.finish()
        let probed = try Self.probe(path)
        #expect(probed["codec_name"] == (sampleFormat == .int16 ? "pcm_s16le" : "pcm_f32le"))
        #expect(probed["sample_rate"] == "22050")
        #expect(probed["channels"] == "\(channels)")
        // 0.1 s at 22050 Hz: 2205 sample frames.
        #expect(probed["duration_ts"] == "2205")
        let decoded = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", raw, "-"]).standardOutput
        #expect([UInt8](decoded) == samples)
    }

    @Test("planar and float input is interleaved and converted; a file finished early is valid",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func conversionsAndEarlyFinish() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("planar.wav").path
        var writer = try WAVWriter(path: path, sampleRate: 8000, channelCount: 2, sampleFormat: .int16)
        // Planar Int16: left 1, 2, 3; right -1, -2, -3.
        let left: [Int16] = [1, 2, 3], right: [Int16] = [-1, -2, -3]
        let planar = try AudioBuffer(sampleRate: 8000, channelCount: 2, format: .int16, isInterleaved: false,
                                     channelData: [left.withUnsafeBytes { Array($0) }, right.withUnsafeBytes { Array($0) }])
        try writer.write(planar)
        // Float 0.5 → 16384 and -1.0 → -32768 (x · 32768, the scale ffmpeg's swresample uses for flt → s16).
        let floats: [Float] = [0.5, -1.0]
        try writer.write(AudioBuffer(sampleRate: 8000, channelCount: 2, format: .float32, isInterleaved: true,
                                     channelData: [floats.withUnsafeBytes { Array($0) }]))
        try writer.finish()  // "early": after a handful of samples
        let decoded = [UInt8](try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-f", "s16le", "-"]).standardOutput)
        let expected: [Int16] = [1, -1, 2, -2, 3, -3, 16384, -32768]
        #expect(decoded == expected.withUnsafeBytes { Array($0) })
    }

    @Test("header layout in memory; misuse errors; a sink that cannot go back fails in finish")
    func memoryAndErrors() throws {
        var writer = try WAVWriter(sink: MemoryByteSink(), sampleRate: 8000, channelCount: 1)
        try writer.write(AudioBuffer(interleavedInt16: [1, -1], sampleRate: 8000, channelCount: 1))
        #expect(throws: ContainerWriteError.frameMismatch(frameIndex: 2, reason: "audio is 16000 Hz × 1 channels, file is 8000 Hz × 1")) {
            try writer.write(AudioBuffer(interleavedInt16: [1], sampleRate: 16000, channelCount: 1))
        }
        try writer.finish()
        // The canonical 44-byte PCM header (Microsoft WAVEFORMATEX): RIFF size 36 + 4, fmt 16 bytes, data 4 bytes.
        let expected: [UInt8] = Array("RIFF".utf8) + [40, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0,
            0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0] + Array("data".utf8) + [4, 0, 0, 0, 1, 0, 0xFF, 0xFF]
        #expect(writer.sink.bytes == expected)
        #expect(throws: ContainerWriteError.alreadyFinished) {
            try writer.write(AudioBuffer(interleavedInt16: [1], sampleRate: 8000, channelCount: 1))
        }
        var reader = try WAVReader(data: writer.sink.bytes)
        #expect(try reader.read()?.interleavedInt16 == [1, -1])

        #expect(throws: ContainerWriteError.invalidConfiguration("WAV channel count 0 outside 1...65535")) {
            try WAVWriter(sink: MemoryByteSink(), sampleRate: 8000, channelCount: 0)
        }
        var piped = try WAVWriter(sink: PipeLikeSink(), sampleRate: 8000, channelCount: 1)
        #expect(throws: ContainerWriteError.io(ContainerIOError(operation: .overwrite, path: "<pipe>", code: ESPIPE))) {
            try piped.finish()
        }
    }
}

/// A sink that, like a pipe, cannot go back.
struct PipeLikeSink: ByteSink {
    var bytes: [UInt8] = []
    mutating func write(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }
    func overwrite(_ bytes: [UInt8], at offset: Int) throws(ContainerIOError) {
        throw ContainerIOError(operation: .overwrite, path: "<pipe>", code: ESPIPE)
    }
    func flush() {}
    func close() {}
}

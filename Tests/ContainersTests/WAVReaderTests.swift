import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// WAVReader on WAVs made by ffmpeg: the samples must equal ffmpeg's raw decoding of the same file.
@Suite("WAVReader")
struct WAVReaderTests {
    /// Makes a 0.1 s sine WAV with ffmpeg (`-f lavfi -i sine`) in `codec`, written to a file (sizes
    /// patched) or, when `streamed`, to a pipe (sizes left at 0xFFFFFFFF).
    static func ffmpegWAV(codec: String, sampleRate: Int = 8000, channels: Int = 1, streamed: Bool = false) throws -> [UInt8] {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sine.wav").path
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.1:sample_rate=\(sampleRate)",
                                                       "-ac", "\(channels)", "-c:a", codec, "-f", "wav", streamed ? "-" : path])
        return streamed ? [UInt8](output.standardOutput) : [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// ffmpeg's raw decoding of WAV bytes to interleaved little-endian samples (`s16le` or `f32le`).
    static func ffmpegRaw(_ wav: [UInt8], format: String) throws -> [UInt8] {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("in.wav")
        try Data(wav).write(to: path)
        return [UInt8](try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path.path, "-f", format, "-"]).standardOutput)
    }

    /// Reads every block and concatenates the sample bytes.
    static func readAll<Source>(_ reader: inout WAVReader<Source>, block: Int) throws -> (bytes: [UInt8], blocks: [Int]) {
        var bytes: [UInt8] = []
        var blocks: [Int] = []
        while let buffer = try reader.read(maxFrameCount: block) {
            #expect(buffer.isInterleaved)
            bytes += buffer.channelData[0]
            blocks.append(buffer.frameCount)
        }
        return (bytes, blocks)
    }

    @Test("16-bit PCM (ffmpeg adds a LIST chunk): samples equal ffmpeg's s16le, read in blocks",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func pcm16() throws {
        let wav = try Self.ffmpegWAV(codec: "pcm_s16le")
        var reader = try WAVReader(data: wav)
        #expect(reader.format.formatTag == WAVFormat.pcmTag)
        #expect(reader.format.sampleFormat == .int16)
        #expect(reader.format.sampleRate == 8000 && reader.format.channelCount == 1)
        let (bytes, blocks) = try Self.readAll(&reader, block: 300)
        // 0.1 s at 8000 Hz = 800 samples (the lavfi source's duration).
        #expect(blocks == [300, 300, 200])
        #expect(reader.framesRead == 800 && reader.declaredFrameCount == 800)
        #expect(bytes == (try Self.ffmpegRaw(wav, format: "s16le")))
    }

    @Test("32-bit float (ffmpeg writes WAVE_FORMAT_EXTENSIBLE) equals ffmpeg's f32le", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func float32Extensible() throws {
        let wav = try Self.ffmpegWAV(codec: "pcm_f32le", sampleRate: 16000, channels: 2)
        var reader = try WAVReader(data: wav)
        #expect(reader.format.isExtensible)
        #expect(reader.format.sampleFormat == .float32)
        #expect(reader.format.channelCount == 2)
        let (bytes, _) = try Self.readAll(&reader, block: 1000)
        #expect(reader.framesRead == 1600)
        #expect(bytes == (try Self.ffmpegRaw(wav, format: "f32le")))
    }

    @Test("3-channel 16-bit PCM (extensible) and a streamed WAV without sizes", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func extensiblePCMAndStreamed() throws {
        let surround = try Self.ffmpegWAV(codec: "pcm_s16le", channels: 3)
        var reader = try WAVReader(data: surround)
        #expect(reader.format.isExtensible && reader.format.channelCount == 3)
        #expect(try Self.readAll(&reader, block: 4096).bytes == (try Self.ffmpegRaw(surround, format: "s16le")))

        // Written to a pipe, ffmpeg cannot patch the sizes: RIFF and data sizes stay 0xFFFFFFFF.
        let streamed = try Self.ffmpegWAV(codec: "pcm_s16le", streamed: true)
        var streamedReader = try WAVReader(data: streamed)
        #expect(streamedReader.declaredDataByteCount == nil)
        let (bytes, _) = try Self.readAll(&streamedReader, block: 512)
        #expect(bytes.count == 1600)
    }

    @Test("from a file, one byte per read, same samples", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func fileAndTrickle() throws {
        let wav = try Self.ffmpegWAV(codec: "pcm_s16le", channels: 2)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a.wav").path
        try Data(wav).write(to: URL(fileURLWithPath: path))
        var fromFile = try WAVReader(path: path)
        var trickle = try WAVReader(source: TrickleSource(bytes: wav))
        let expected = try Self.ffmpegRaw(wav, format: "s16le")
        #expect(try Self.readAll(&fromFile, block: 100).bytes == expected)
        #expect(try Self.readAll(&trickle, block: 100).bytes == expected)
    }

    @Test("formats other than 16-bit PCM and 32-bit float name their tag or depth", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func unsupportedFormats() throws {
        // Offsets: the fmt payload starts at byte 20 (RIFF header 12 + chunk header 8); wFormatTag is its
        // first field, wBitsPerSample is at +14, the extensible sub-format GUID at +24.
        #expect(throws: WAVError.unsupportedFormatTag(2, name: "Microsoft ADPCM", byteOffset: 20)) {
            try WAVReader(data: try Self.ffmpegWAV(codec: "adpcm_ms"))
        }
        #expect(throws: WAVError.unsupportedFormatTag(7, name: "μ-law", byteOffset: 20)) {
            try WAVReader(data: try Self.ffmpegWAV(codec: "pcm_mulaw"))
        }
        #expect(throws: WAVError.unsupportedBitDepth(formatTag: 1, bitsPerSample: 8, byteOffset: 34)) {
            try WAVReader(data: try Self.ffmpegWAV(codec: "pcm_u8"))
        }
        #expect(throws: WAVError.unsupportedBitDepth(formatTag: 1, bitsPerSample: 24, byteOffset: 34)) {
            try WAVReader(data: try Self.ffmpegWAV(codec: "pcm_s24le"))
        }
    }

    @Test("a cut data chunk yields the samples that are there, then the truncation", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func truncatedData() throws {
        let wav = try Self.ffmpegWAV(codec: "pcm_s16le")
        let dataOffset = try #require(Self.dataPayloadOffset(wav))
        let cut = dataOffset + 1001  // 500 whole samples and half of the next
        var reader = try WAVReader(data: Array(wav[..<cut]))
        #expect(reader.dataByteOffset == dataOffset)
        var samples = 0
        var caught: WAVError?
        do {
            while let buffer = try reader.read(maxFrameCount: 256) { samples += buffer.frameCount }
        } catch {
            caught = error
        }
        #expect(samples == 500)
        #expect(caught == .truncatedData(byteOffset: dataOffset, declaredBytes: 1600, availableBytes: 1001))
        #expect(try reader.read() == nil)
    }

    @Test("not RIFF, not WAVE, no fmt, no data, short fmt")
    func malformedHeaders() throws {
        #expect(throws: WAVError.notRIFF(found: "YUV4")) { try WAVReader(data: Array("YUV4MPEG2 W2 H2\n".utf8)) }
        #expect(throws: WAVError.notWAVE(found: "AVI ")) { try WAVReader(data: Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI ".utf8)) }
        #expect(throws: WAVError.truncatedHeader(byteOffset: 3, what: "RIFF header")) { try WAVReader(data: Array("RIF".utf8)) }
        let riff = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        #expect(throws: WAVError.missingFormatChunk(byteOffset: 12)) { try WAVReader(data: riff + Array("data".utf8) + [0, 0, 0, 0]) }
        #expect(throws: WAVError.missingFormatChunk(byteOffset: 12)) { try WAVReader(data: riff) }
        #expect(throws: WAVError.formatChunkTooShort(byteOffset: 20, size: 4, needed: 16)) {
            try WAVReader(data: riff + Array("fmt ".utf8) + [4, 0, 0, 0, 1, 0, 1, 0])
        }
        // A valid 16-byte PCM fmt (Microsoft WAVEFORMATEX: tag 1, 1 channel, 8000 Hz, 16000 B/s, align 2, 16 bits).
        let fmt = Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0]
        #expect(throws: WAVError.missingDataChunk(byteOffset: 36)) { try WAVReader(data: riff + fmt) }
        var badAlign = fmt
        badAlign[20] = 3
        #expect(throws: WAVError.invalidFormatField(field: "nBlockAlign", value: 3, byteOffset: 32,
                                                    reason: "must be nChannels × wBitsPerSample / 8 = 2")) {
            try WAVReader(data: riff + badAlign + Array("data".utf8) + [0, 0, 0, 0])
        }
        var empty = try WAVReader(data: riff + fmt + Array("LIST".utf8) + [3, 0, 0, 0, 1, 2, 3, 0] + Array("data".utf8) + [0, 0, 0, 0])
        #expect(try empty.read() == nil)
    }

    /// Where the samples of the first `data` chunk start, found by walking the RIFF chunks.
    static func dataPayloadOffset(_ wav: [UInt8]) -> Int? {
        var offset = 12
        while offset + 8 <= wav.count {
            let size = Int(wav[offset + 4]) | Int(wav[offset + 5]) << 8 | Int(wav[offset + 6]) << 16 | Int(wav[offset + 7]) << 24
            if wav[offset..<(offset + 4)].elementsEqual("data".utf8) { return offset + 8 }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}

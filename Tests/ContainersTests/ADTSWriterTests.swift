import AAC
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// ADTSWriter on the ExoPlayer sample (AAC-LC, 44.1 kHz, mono, no CRC): writing its raw frames back
/// must give the file byte for byte, and ffprobe must read our file.
@Suite("ADTSWriter")
struct ADTSWriterTests {
    static let sample = "audio/exoplayer/sample.adts"

    /// The raw frames of an ADTS file, headers stripped (using each header's `aac_frame_length`).
    static func rawFrames(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            let header = try ADTSHeader.parse(bytes[offset...], byteOffset: offset)
            frames.append(Array(bytes[(offset + header.headerLength)..<(offset + header.frameLength)]))
            offset += header.frameLength
        }
        return frames
    }

    /// The sample's format. AudioSpecificConfig for AAC-LC, 44100 Hz (index 4), mono (configuration 1),
    /// 1024-sample frames — ISO/IEC 14496-3 §1.6.2.1: 00010 0100 0001 0 0 0 = 0x12 0x08.
    static func format(withConfig: Bool) -> AudioFormatDescription {
        AudioFormatDescription(codec: .aac, sampleRate: 44100, channelCount: 1, profile: "LC",
                               audioSpecificConfig: withConfig ? [0x12, 0x08] : [])
    }

    static func write(_ frames: [[UInt8]], format: AudioFormatDescription) throws -> [UInt8] {
        var writer = ADTSWriter(sink: MemoryByteSink())
        var pts = MediaTime(value: 0, timescale: 44100)
        let duration = MediaTime(value: 1024, timescale: 44100)
        for frame in frames {
            try writer.write(EncodedAudioFrame(data: frame, pts: pts, duration: duration, format: format))
            pts = pts + duration
        }
        try writer.finish()
        #expect(writer.frameCount == frames.count)
        return writer.sink.bytes
    }

    @Test("the sample's frames written back are the file, byte for byte", .requiresMedia, arguments: [true, false])
    func byteIdentical(withConfig: Bool) throws {
        let original = try MediaFiles.bytes(Self.sample)
        let frames = try Self.rawFrames(original)
        #expect(frames.count == 144)
        #expect(try Self.write(frames, format: Self.format(withConfig: withConfig)) == original)
    }

    @Test("ffprobe reads our file: AAC LC, 44100 Hz, mono, 144 packets", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func ffprobeReadsOurs() async throws {
        let frames = try Self.rawFrames(try MediaFiles.bytes(Self.sample))
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ours.aac").path
        var writer = try ADTSWriter(path: path)
        let duration = MediaTime(value: 1024, timescale: 44100)
        for frame in frames {
            try writer.write(EncodedAudioFrame(data: frame, pts: .zero, duration: duration, format: Self.format(withConfig: true)))
        }
        try writer.finish()
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                        "stream=codec_name,profile,sample_rate,channels,nb_read_packets",
                                                        "-of", "default=noprint_wrappers=1", path])
        let text = output.text
        for line in ["codec_name=aac", "profile=LC", "sample_rate=44100", "channels=1", "nb_read_packets=144"] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == (try MediaFiles.bytes(Self.sample)))
    }

    @Test("formats and frames ADTS cannot carry are refused")
    func errors() throws {
        var writer = ADTSWriter(sink: MemoryByteSink())
        let time = MediaTime.zero
        var video = Self.format(withConfig: false)
        video.codec = .h264
        #expect(throws: ContainerWriteError.unsupportedCodec(.h264, frameIndex: 0)) {
            try writer.write(EncodedAudioFrame(data: [1], pts: time, duration: time, format: video))
        }
        var heAAC = Self.format(withConfig: false)
        heAAC.profile = "HE-AAC"
        #expect(throws: ContainerWriteError.self) {
            try writer.write(EncodedAudioFrame(data: [1], pts: time, duration: time, format: heAAC))
        }
        var oddRate = Self.format(withConfig: false)
        oddRate.sampleRate = 12345
        #expect(throws: ContainerWriteError.self) {
            try writer.write(EncodedAudioFrame(data: [1], pts: time, duration: time, format: oddRate))
        }
        // aac_frame_length has 13 bits: 8191 bytes at most, 7 of them header (ISO/IEC 13818-7 §6.2.1).
        #expect(throws: ContainerWriteError.self) {
            try writer.write(EncodedAudioFrame(data: [UInt8](repeating: 0, count: 8185), pts: time, duration: time,
                                               format: Self.format(withConfig: true)))
        }
        try writer.write(EncodedAudioFrame(data: [UInt8](repeating: 0, count: 8184), pts: time, duration: time,
                                           format: Self.format(withConfig: true)))
        #expect(writer.sink.bytes.count == 8191)
        var garbageConfig = Self.format(withConfig: false)
        garbageConfig.audioSpecificConfig = [0xFF]
        #expect(throws: ContainerWriteError.self) {
            try writer.write(EncodedAudioFrame(data: [1], pts: time, duration: time, format: garbageConfig))
        }
    }
}

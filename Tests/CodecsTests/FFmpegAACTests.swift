#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// FFmpeg's native AAC encoder and decoder through the engine, checked with ffprobe/ffmpeg.
@Suite("FFmpeg engine: AAC", .enabled(if: FFmpegTestSupport.toolsAvailable))
struct FFmpegAACTests {
    /// A 7-byte ADTS header (ISO/IEC 13818-7 §6.2 / ISO/IEC 14496-3 §1.A.2.2, protection absent) for a
    /// raw frame, with profile, rate index and channels read from the AudioSpecificConfig (§1.6.2.1:
    /// 5 bits audioObjectType, 4 bits samplingFrequencyIndex, 4 bits channelConfiguration).
    static func adtsHeader(payloadLength: Int, audioSpecificConfig asc: [UInt8]) -> [UInt8] {
        let objectType = Int(asc[0] >> 3)
        let rateIndex = Int((asc[0] & 0x07) << 1 | asc[1] >> 7)
        let channels = Int((asc[1] >> 3) & 0x0F)
        let length = payloadLength + 7
        return [
            0xFF, 0xF1,  // syncword, MPEG-4, layer 0, protection_absent
            UInt8((objectType - 1) << 6 | rateIndex << 2 | channels >> 2),
            UInt8((channels & 3) << 6 | length >> 11),
            UInt8((length >> 3) & 0xFF),
            UInt8((length & 7) << 5 | 0x1F),  // buffer fullness 0x7FF (VBR)
            0xFC,
        ]
    }

    /// 2 s of a 440 Hz sine at 48 kHz stereo, handed over in uneven chunks and in all four PCM layouts.
    static func sineChunks() throws -> [AudioBuffer] {
        let rate = 48000, total = 96000
        var chunks: [AudioBuffer] = []
        var start = 0, chunk = 0
        while start < total {
            let count = min([1000, 333, 2048, 4711][chunk % 4], total - start)
            let left = (start..<(start + count)).map { Float(sin(2 * Double.pi * 440 * Double($0) / Double(rate)) * 0.5) }
            let right = left.map { $0 * 0.5 }
            let bytes = { (values: [Float]) in values.withUnsafeBytes { [UInt8]($0) } }
            let int16 = { (values: [Float]) in values.map { Int16($0 * 32767) } }
            switch chunk % 4 {
            case 0:
                chunks.append(try AudioBuffer(interleavedInt16: Array(zip(int16(left), int16(right)).map { [$0, $1] }.joined()),
                                              sampleRate: rate, channelCount: 2))
            case 1:
                chunks.append(try AudioBuffer(sampleRate: rate, channelCount: 2, format: .float32, isInterleaved: false,
                                              channelData: [bytes(left), bytes(right)]))
            case 2:
                chunks.append(try AudioBuffer(sampleRate: rate, channelCount: 2, format: .float32, isInterleaved: true,
                                              channelData: [bytes(Array(zip(left, right).map { [$0, $1] }.joined()))]))
            default:
                let planar = [int16(left), int16(right)].map { $0.withUnsafeBytes { [UInt8]($0) } }
                chunks.append(try AudioBuffer(sampleRate: rate, channelCount: 2, format: .int16, isInterleaved: false,
                                              channelData: planar))
            }
            start += count
            chunk += 1
        }
        return chunks
    }

    @Test("2 s of sine at 48 kHz stereo → ADTS that ffprobe reads as AAC LC 48000 Hz 2 channels, 2 s long")
    func encodeToADTS() async throws {
        let configuration = AudioEncoderConfiguration(sampleRate: 48000, channelCount: 2, bitRate: 128_000)
        let encoder = try FFmpegTestSupport.engine("aac").makeAudioEncoder(configuration)
        #expect(encoder.format.profile == "LC" && encoder.format.sampleRate == 48000 && encoder.format.channelCount == 2)
        #expect(encoder.format.audioSpecificConfig.count >= 2)
        var frames: [EncodedAudioFrame] = []
        for chunk in try Self.sineChunks() { frames += try encoder.encode(chunk) }
        frames += try encoder.flush()

        // pts are consecutive in samples; the encoder's priming delay shows as a negative first pts.
        #expect(frames.allSatisfy { $0.pts.timescale == 48000 })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts })
        let priming = -(frames.first?.pts.value ?? 0)
        let covered = frames.reduce(0) { $0 + $1.duration.value } - priming
        #expect(covered == 96000, "frames cover \(covered) samples after \(priming) of priming")

        var adts: [UInt8] = []
        for frame in frames {
            adts += Self.adtsHeader(payloadLength: frame.data.count, audioSpecificConfig: encoder.format.audioSpecificConfig)
            adts += frame.data
        }
        let url = try FFmpegTestSupport.write(adts, name: "sine.aac")
        let info = try FFmpegTestSupport.streamInfo(url, kind: "a", entries: "codec_name,profile,sample_rate,channels")
        #expect(info["codec_name"] == "aac")
        #expect(info["profile"] == "LC")
        #expect(info["sample_rate"] == "48000")
        #expect(info["channels"] == "2")
        // ADTS carries no duration: count the frames ffprobe reads (1024 samples each) minus the
        // encoder's priming (its first pts, −1024 for FFmpeg's aac); within one frame (21.3 ms) of 2 s.
        let packets = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets",
                                                         "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path])
        let count = try #require(Int(packets.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(count == frames.count)
        let seconds = Double(count * 1024 - Int(priming)) / 48000
        #expect(abs(seconds - 2) <= 1024.0 / 48000, "duration \(seconds) s")
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
    }

    @Test("our AAC decoder gives exactly ffmpeg's PCM for the same frames")
    func decodeMatchesFFmpeg() async throws {
        let configuration = AudioEncoderConfiguration(sampleRate: 48000, channelCount: 2, bitRate: 96_000)
        let encoder = try FFmpegTestSupport.engine("aac").makeAudioEncoder(configuration)
        var frames: [EncodedAudioFrame] = []
        for chunk in try Self.sineChunks().prefix(8) { frames += try encoder.encode(chunk) }
        frames += try encoder.flush()
        let decoder = try FFmpegTestSupport.engine("aac").makeAudioDecoder(encoder.format)
        var pcm: [AudioBuffer] = []
        for frame in frames { pcm += try decoder.decode(frame) }
        pcm += try decoder.flush()
        #expect(pcm.allSatisfy { $0.format == .float32 && !$0.isInterleaved && $0.sampleRate == 48000 && $0.channelCount == 2 })
        var ours: [Float] = []
        for buffer in pcm {
            let planes = buffer.planarFloat32
            for index in 0..<buffer.frameCount { ours += [planes[0][index], planes[1][index]] }
        }
        var adts: [UInt8] = []
        for frame in frames {
            adts += Self.adtsHeader(payloadLength: frame.data.count, audioSpecificConfig: encoder.format.audioSpecificConfig)
            adts += frame.data
        }
        let url = try FFmpegTestSupport.write(adts, name: "decode.aac")
        let reference = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", url.path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let theirs = reference.standardOutput.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
        }
        #expect(ours.count == theirs.count)
        #expect(ours == theirs)
    }

    @Test("audio at the wrong rate is refused with inputMismatch")
    func wrongRate() throws {
        let encoder = try FFmpegTestSupport.engine("aac").makeAudioEncoder(
            AudioEncoderConfiguration(sampleRate: 48000, channelCount: 2, bitRate: 128_000))
        let audio = try AudioBuffer(interleavedInt16: [0, 0, 0, 0], sampleRate: 44100, channelCount: 2)
        #expect(throws: CodecError.self) { _ = try encoder.encode(audio) }
    }
}
#endif

#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// libx265 through the FFmpeg engine, checked with ffprobe/ffmpeg.
@Suite("FFmpeg engine: x265 encoder", .enabled(if: FFmpegTestSupport.toolsAvailable))
struct FFmpegX265EncoderTests {
    @Test("Main, 640x480, 60 frames, key frames every --gop, no B-frames, frame rate, clean decode")
    func basics() throws {
        var configuration = CompressionConfiguration(codec: .hevc, width: 640, height: 480, profileLevel: .hevcMain)
        configuration.allowFrameReordering = false
        configuration.maxKeyFrameInterval = 15
        configuration.expectedFrameRate = 30
        configuration.realTime = true
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x265", count: 60)
        #expect(frames.count == 60)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "basics.h265")
        let info = try FFmpegTestSupport.streamInfo(url, entries: "codec_name,profile,width,height,r_frame_rate")
        #expect(info["codec_name"] == "hevc")
        #expect(info["profile"] == "Main")
        #expect(info["width"] == "640" && info["height"] == "480")
        #expect(info["r_frame_rate"] == "30/1")
        let format = try #require(frames.first?.format)
        #expect(format.codec == .hevc && format.profileLevel.profile == .hevcMain && format.width == 640 && format.height == 480)
        #expect(format.parameterSets.map { ($0.first ?? 0) >> 1 & 0x3F } == [32, 33, 34], "VPS, SPS, PPS in that order")

        let types = try FFmpegTestSupport.frameTypes(url)
        #expect(types.count == 60)
        let keyIndices = types.indices.filter { types[$0].key }
        #expect(keyIndices == [0, 15, 30, 45], "key frames at \(keyIndices)")
        #expect(!types.contains { $0.type == "B" })
        #expect(frames.indices.filter { frames[$0].isKeyFrame } == keyIndices)
        for frame in frames where frame.isKeyFrame {
            let types = Set(frame.nalUnitRanges.map { frame.data[$0.lowerBound] >> 1 & 0x3F })
            #expect(types.isSuperset(of: [32, 33, 34]) && (types.contains(19) || types.contains(20)),
                    "key frame NAL types \(types.sorted())")
        }
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
    }

    @Test("maxBFrames 2 gives B-frames with consistent pts/dts")
    func bFrames() throws {
        var configuration = CompressionConfiguration(codec: .hevc, width: 320, height: 240)
        configuration.maxBFrames = 2
        configuration.maxKeyFrameInterval = 20
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x265", count: 40)
        #expect(frames.count == 40)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "bframes.h265")
        let types = try FFmpegTestSupport.frameTypes(url)
        #expect(types.contains { $0.type == "B" })
        #expect(types.indices.filter { types[$0].key } == [0, 20])
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.dts < $1.dts })
        #expect(frames.allSatisfy { $0.dts <= $0.pts })
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
    }

    @Test("averageBitRate 500 kbit/s over 150 frames lands within ±10 %")
    func averageBitRate() throws {
        var configuration = CompressionConfiguration(codec: .hevc, width: 320, height: 240)
        configuration.averageBitRate = 500_000
        configuration.realTime = true
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x265", count: 150)
        let rate = Double(frames.reduce(0) { $0 + $1.data.count }) * 8 / 5.0
        #expect(abs(rate - 500_000) <= 50_000, "measured \(Int(rate)) bit/s")
    }

    @Test("maxFrameDelayCount bounds how many pictures the encoder holds", arguments: [0, 5, 9])
    func frameDelay(limit: Int) throws {
        var configuration = CompressionConfiguration(codec: .hevc, width: 320, height: 240)
        configuration.maxFrameDelayCount = limit
        let encoder = try FFmpegTestSupport.engine("x265").makeVideoEncoder(configuration)
        var emitted = 0
        for index in 0..<24 {
            let picture = try FFmpegTestSupport.picture(index: index, width: 320, height: 240)
            emitted += try encoder.encode(picture, pts: MediaTime(value: Int64(index), timescale: 30),
                                          duration: MediaTime(value: 1, timescale: 30), forceKeyFrame: false).count
            #expect(index + 1 - emitted <= limit, "holding \(index + 1 - emitted) pictures after \(index + 1)")
        }
        emitted += try encoder.flush().count
        #expect(emitted == 24)
    }

    @Test("a given level reaches the stream (general_level_idc 93 for 3.1)")
    func level() throws {
        let configuration = CompressionConfiguration(codec: .hevc, width: 320, height: 240,
                                                     profileLevel: ProfileLevel(profile: .hevcMain, level: "3.1"))
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x265", count: 5)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "level.h265")
        #expect(try FFmpegTestSupport.streamInfo(url, entries: "level")["level"] == "93")
        #expect(frames.first?.format.profileLevel.level == "3.1")
    }

    @Test("entropyMode is refused for H.265 with unsupportedProperty")
    func entropyModeRefused() throws {
        var configuration = CompressionConfiguration(codec: .hevc, width: 320, height: 240)
        configuration.entropyMode = .cabac
        #expect {
            _ = try FFmpegTestSupport.engine("x265").makeVideoEncoder(configuration)
        } throws: { error in
            guard case .unsupportedProperty(.entropyMode, _, let engine) = error as? CodecError else { return false }
            return engine == "x265"
        }
    }
}
#endif

#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// libx264 through the FFmpeg engine, checked with ffprobe/ffmpeg (the oracles nobody here wrote).
@Suite("FFmpeg engine: x264 encoder", .enabled(if: FFmpegTestSupport.toolsAvailable))
struct FFmpegX264EncoderTests {
    /// The profile ffprobe names for each ProfileLevel (x264 sets constraint_set1 in Baseline, so
    /// ffprobe prints "Constrained Baseline").
    static let profiles: [(ProfileLevel, String)] = [(.h264Baseline, "Constrained Baseline"), (.h264Main, "Main"), (.h264High, "High")]

    @Test("profile, size, frame count, key-frame interval, no B-frames, frame rate, clean decode",
          arguments: [0, 1, 2])
    func basics(profileIndex: Int) throws {
        let (profileLevel, expectedProfile) = Self.profiles[profileIndex]
        var configuration = CompressionConfiguration(codec: .h264, width: 640, height: 480, profileLevel: profileLevel)
        configuration.allowFrameReordering = false
        configuration.maxKeyFrameInterval = 12
        configuration.expectedFrameRate = 30
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 60)
        #expect(frames.count == 60)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "basics.h264")

        let info = try FFmpegTestSupport.streamInfo(url, entries: "codec_name,profile,width,height,r_frame_rate,has_b_frames")
        #expect(info["codec_name"] == "h264")
        #expect(info["profile"] == expectedProfile)
        #expect(info["width"] == "640" && info["height"] == "480")
        #expect(info["r_frame_rate"] == "30/1")
        // The description built from the in-band SPS says what ffprobe says.
        let format = try #require(frames.first?.format)
        #expect(format.profileLevel.profileName == expectedProfile && format.width == 640 && format.height == 480)
        #expect(format.parameterSets.count == 2)

        let types = try FFmpegTestSupport.frameTypes(url)
        #expect(types.count == 60)
        let keyIndices = types.indices.filter { types[$0].key }
        #expect(keyIndices == Array(stride(from: 0, to: 60, by: 12)), "key frames at \(keyIndices)")
        #expect(!types.contains { $0.type == "B" }, "B-frames with allowFrameReordering = false")
        // Our key-frame flags agree with the stream, and every key frame carries SPS + PPS in-band.
        #expect(frames.indices.filter { frames[$0].isKeyFrame } == keyIndices)
        for frame in frames where frame.isKeyFrame {
            let types = frame.nalUnitRanges.map { frame.data[$0.lowerBound] & 0x1F }
            #expect(types.contains(7) && types.contains(8) && types.contains(5), "key frame NAL types \(types)")
        }
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
    }

    @Test("High with maxBFrames 2: B-frames, decode-order timestamps in the caller's timescale")
    func bFrames() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 640, height: 480, profileLevel: .h264High)
        configuration.maxBFrames = 2
        configuration.maxKeyFrameInterval = 30
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 60, timescale: 90000)
        #expect(frames.count == 60)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "bframes.h264")
        let types = try FFmpegTestSupport.frameTypes(url)
        #expect(types.contains { $0.type == "B" })
        // No run of more than two B-frames.
        var run = 0, longest = 0
        for entry in types { run = entry.type == "B" ? run + 1 : 0; longest = max(longest, run) }
        #expect(longest <= 2)
        #expect(types.indices.filter { types[$0].key } == [0, 30])
        // pts: exactly the ones given (90 kHz, 3000 per frame); dts increase and never pass pts.
        #expect(Set(frames.map(\.pts)) == Set((0..<60).map { MediaTime(value: Int64($0) * 3000, timescale: 90000) }))
        #expect(frames.allSatisfy { $0.pts.timescale == 90000 && $0.dts.timescale == 90000 })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.dts < $1.dts })
        #expect(frames.allSatisfy { $0.dts <= $0.pts })
        #expect(frames.contains { $0.pts != $0.dts }, "reordered stream must have dts ≠ pts somewhere")
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
    }

    @Test("averageBitRate 1 Mbit/s over 300 frames lands within ±10 %")
    func averageBitRate() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 640, height: 480, profileLevel: .h264High)
        configuration.averageBitRate = 1_000_000
        configuration.expectedFrameRate = 30
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 300)
        #expect(frames.count == 300)
        let bits = Double(frames.reduce(0) { $0 + $1.data.count }) * 8
        let rate = bits / 10.0
        #expect(abs(rate - 1_000_000) <= 100_000, "measured \(Int(rate)) bit/s")
        // ffprobe agrees on the frame count of what we wrote.
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "abr.h264")
        #expect(try FFmpegTestSupport.frameTypes(url).count == 300)
    }

    /// libx264 output is not reproducible byte for byte across encoder instances in one process (seen
    /// with a plain C program against the same libavcodec), so each layout is checked against the
    /// source samples after ffmpeg decodes it, not against another encode.
    @Test("every pixel layout with padded rows reaches the encoder sample for sample",
          arguments: PixelFormat.allCases)
    func layouts(format: PixelFormat) async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.quantizer = 8
        let encoder = try FFmpegTestSupport.engine("x264").makeVideoEncoder(configuration)
        var frames: [EncodedFrame] = []
        for index in 0..<5 {
            let picture = try FFmpegTestSupport.picture(index: index, width: 320, height: 240, format: format, padding: 48)
            frames += try encoder.encode(picture, pts: MediaTime(value: Int64(index) * 3000, timescale: 90000),
                                         duration: MediaTime(value: 3000, timescale: 90000), forceKeyFrame: false)
        }
        frames += try encoder.flush()
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "layout.h264")
        let decoded = [UInt8](try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo",
                                                                "-pix_fmt", "yuv420p", "-"]).standardOutput)
        let frameSize = 320 * 240 * 3 / 2
        #expect(decoded.count == 5 * frameSize)
        for index in 0..<min(5, decoded.count / frameSize) {
            let source = FFmpegTestSupport.planes(index: index, width: 320, height: 240)
            let base = index * frameSize
            let planes: [(String, [UInt8], Int)] = [("Y", source.y, base), ("U", source.u, base + 320 * 240),
                                                    ("V", source.v, base + 320 * 240 * 5 / 4)]
            for (name, samples, offset) in planes {
                let difference = zip(samples, decoded[offset..<(offset + samples.count)]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
                let mean = Double(difference) / Double(samples.count)
                #expect(mean < 2.5, "\(format) frame \(index) plane \(name): mean error \(mean)")
            }
        }
    }

    @Test("forceKeyFrame makes an IDR picture at that pts")
    func forcedKeyFrame() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264Main)
        configuration.allowFrameReordering = false
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 20, forceKeyFrameAt: [7])
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "forced.h264")
        let types = try FFmpegTestSupport.frameTypes(url)
        #expect(types.indices.filter { types[$0].key } == [0, 7])
        let forced = try #require(frames.first { $0.pts == MediaTime(value: 7 * 3000, timescale: 90000) })
        #expect(forced.isKeyFrame)
        #expect(forced.nalUnitRanges.contains { forced.data[$0.lowerBound] & 0x1F == 5 }, "forced key frame is IDR")
    }

    @Test("entropyMode CAVLC on Main, level 3.1, expected frame rate 25")
    func entropyLevelRate() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240,
                                                     profileLevel: ProfileLevel(profile: .main, level: "3.1"))
        configuration.entropyMode = .cavlc
        configuration.expectedFrameRate = 25
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: 10)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "cavlc.h264")
        let info = try FFmpegTestSupport.streamInfo(url, entries: "profile,level,r_frame_rate")
        #expect(info["profile"] == "Main")
        #expect(info["level"] == "31")
        #expect(info["r_frame_rate"] == "25/1")
        #expect(frames.first?.format.profileLevel == ProfileLevel(profile: .main, level: "3.1"))
        // entropy_coding_mode_flag is the first bit after two ue(v)s in the PPS: ffmpeg's trace_headers says.
        let trace = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", url.path, "-c", "copy", "-bsf:v", "trace_headers",
                                                      "-f", "null", "-", "-loglevel", "trace"])
        #expect(trace.standardError.contains("entropy_coding_mode_flag") && trace.standardError.range(
            of: #"entropy_coding_mode_flag\s+0\s+= 0"#, options: .regularExpression) != nil)
    }

    @Test("maxFrameDelayCount bounds how many pictures the encoder holds", arguments: [0, 2, 5])
    func frameDelay(limit: Int) throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.maxFrameDelayCount = limit
        let encoder = try FFmpegTestSupport.engine("x264").makeVideoEncoder(configuration)
        var emitted = 0
        for index in 0..<30 {
            let picture = try FFmpegTestSupport.picture(index: index, width: 320, height: 240)
            emitted += try encoder.encode(picture, pts: MediaTime(value: Int64(index), timescale: 30),
                                          duration: MediaTime(value: 1, timescale: 30), forceKeyFrame: false).count
            #expect(index + 1 - emitted <= limit, "holding \(index + 1 - emitted) pictures after \(index + 1)")
        }
        emitted += try encoder.flush().count
        #expect(emitted == 30)
    }

    @Test("encoding continues after flush with a new key frame; the joined stream decodes cleanly")
    func continueAfterFlush() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High)
        configuration.maxBFrames = 2
        let encoder = try FFmpegTestSupport.engine("x264").makeVideoEncoder(configuration)
        var frames: [EncodedFrame] = []
        for index in 0..<20 {
            let picture = try FFmpegTestSupport.picture(index: index, width: 320, height: 240)
            frames += try encoder.encode(picture, pts: MediaTime(value: Int64(index), timescale: 30),
                                         duration: MediaTime(value: 1, timescale: 30), forceKeyFrame: false)
            if index == 9 { frames += try encoder.flush() }
        }
        frames += try encoder.flush()
        #expect(frames.count == 20)
        #expect(frames.filter(\.isKeyFrame).map(\.pts) == [MediaTime(value: 0, timescale: 30), MediaTime(value: 10, timescale: 30)])
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "joined.h264")
        #expect(try FFmpegTestSupport.decodeErrors(url) == "")
        #expect(try FFmpegTestSupport.frameTypes(url).count == 20)
    }

    @Test("a picture of the wrong size is refused with inputMismatch, not a crash")
    func wrongSize() throws {
        let configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240)
        let encoder = try FFmpegTestSupport.engine("x264").makeVideoEncoder(configuration)
        let picture = PixelBuffer(width: 160, height: 120, format: .i420)
        #expect {
            try encoder.encode(picture, pts: .zero, duration: MediaTime(value: 1, timescale: 30), forceKeyFrame: false)
        } throws: { error in
            guard case .inputMismatch = error as? CodecError else { return false }
            return true
        }
        var shortPlane = try FFmpegTestSupport.picture(index: 0, width: 320, height: 240)
        shortPlane.planes[1].bytes.removeLast(100)
        #expect(throws: CodecError.self) {
            try encoder.encode(shortPlane, pts: .zero, duration: MediaTime(value: 1, timescale: 30), forceKeyFrame: false)
        }
    }

    @Test("conflicting rate-control properties are refused by the configuration's rules before the engine")
    func conflicts() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240)
        configuration.quantizer = 20
        configuration.averageBitRate = 1_000_000
        #expect {
            _ = try FFmpegTestSupport.engine("x264").makeVideoEncoder(configuration)
        } throws: { error in
            guard case .invalidConfiguration(.quantizer, _) = error as? CodecError else { return false }
            return true
        }
        var level = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: ProfileLevel(profile: .high, level: "7.7"))
        level.engineName = "x264"
        #expect(throws: CodecError.self) { _ = try FFmpegTestSupport.engine("x264").makeVideoEncoder(level) }
        // The x264 engine does not encode H.265.
        #expect(throws: CodecError.self) {
            _ = try FFmpegTestSupport.engine("x264").makeVideoEncoder(CompressionConfiguration(codec: .hevc, width: 320, height: 240))
        }
    }

    @Test("constant QP and data-rate limits reach the encoder (ffprobe sees the stream; VBV caps the peak)")
    func quantizerAndLimits() throws {
        var constant = CompressionConfiguration(codec: .h264, width: 320, height: 240)
        constant.quantizer = 30
        let low = try FFmpegTestSupport.encode(constant, engine: "x264", count: 20)
        constant.quantizer = 15
        let high = try FFmpegTestSupport.encode(constant, engine: "x264", count: 20)
        let lowBytes = low.reduce(0) { $0 + $1.data.count }, highBytes = high.reduce(0) { $0 + $1.data.count }
        #expect(highBytes > 2 * lowBytes, "QP 15: \(highBytes) bytes, QP 30: \(lowBytes) bytes")

        // The tightest pair (12 500 bytes per second) sets a VBV of 100 kbit/s with a 100 000-bit buffer:
        // over 3 s the stream may hold at most rate × 3 s + buffer = 400 000 bits. Unlimited, the same
        // content needs well over that, so the cap is really doing the work.
        var free = CompressionConfiguration(codec: .h264, width: 320, height: 240)
        free.expectedFrameRate = 30
        let unlimited = try FFmpegTestSupport.encode(free, engine: "x264", count: 90).reduce(0) { $0 + $1.data.count } * 8
        var limited = free
        limited.dataRateLimits = [DataRateLimit(bytes: 12_500, seconds: 1), DataRateLimit(bytes: 100_000, seconds: 1)]
        let bits = try FFmpegTestSupport.encode(limited, engine: "x264", count: 90).reduce(0) { $0 + $1.data.count } * 8
        #expect(unlimited > 520_000, "unlimited: \(unlimited) bits in 3 s; the content does not test the cap")
        #expect(bits <= 400_000, "\(bits) bits in 3 s against a VBV of 100 kbit/s + 100 000 bits")
    }
}
#endif

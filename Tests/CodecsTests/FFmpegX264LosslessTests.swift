#if FFmpeg
import Codecs
import FFmpegEngine
import Foundation
import MediaCore
import Testing
import TestSupport

/// A constant quantiser of 0 with libx264: lossless in High 4:4:4 Predictive, refused up front in the
/// profiles that cannot code it (x264 would fail inside `avcodec_open2`).
@Suite("FFmpeg engine: x264 lossless", .enabled(if: FFmpegTestSupport.toolsAvailable))
struct FFmpegX264LosslessTests {
    @Test func quantizerZeroInHigh444PredictiveDecodesToTheInputExactly() async throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: .h264High444Predictive)
        configuration.quantizer = 0
        configuration.allowFrameReordering = false
        configuration.maxKeyFrameInterval = 5
        let count = 10
        let frames = try FFmpegTestSupport.encode(configuration, engine: "x264", count: count)
        #expect(frames.count == count)
        let url = try FFmpegTestSupport.write(FFmpegTestSupport.annexB(frames), name: "lossless.h264")
        let info = try FFmpegTestSupport.streamInfo(url, entries: "profile,pix_fmt")
        #expect(info["profile"] == "High 4:4:4 Predictive" && info["pix_fmt"] == "yuv420p")
        #expect(frames.first?.format.profileLevel.profile == .high444Predictive, "the description read from the in-band SPS")
        let decoded = [UInt8](try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo",
                                                               "-pix_fmt", "yuv420p", "-"]).standardOutput)
        var source: [UInt8] = []
        for index in 0..<count {
            let (y, u, v) = FFmpegTestSupport.planes(index: index, width: 320, height: 240)
            source += y + u + v
        }
        #expect(decoded.count == source.count)
        #expect(decoded == source, "a QP 0 High 4:4:4 Predictive stream must decode to its input byte for byte")
    }

    @Test(arguments: [ProfileLevel.h264Baseline, .h264Main, .h264High])
    func quantizerZeroInAnotherProfileIsRefusedBeforeOpening(profileLevel: ProfileLevel) throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: profileLevel)
        configuration.quantizer = 0
        do {
            _ = try FFmpegTestSupport.engine("x264").makeVideoEncoder(configuration)
            Issue.record("quantizer 0 in \(profileLevel) was accepted")
        } catch let error as CodecError {
            guard case let .unsupportedProperty(property, reason, _) = error else {
                Issue.record("expected unsupportedProperty, got \(error)")
                return
            }
            #expect(property == .quantizer && reason.contains("0 (lossless)") && reason.contains("High 4:4:4 Predictive"), "\(reason)")
        }
    }
}
#endif

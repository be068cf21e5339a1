import Foundation
import StreamKit
import Testing
import TestSupport

/// ``DecodedVideoSource`` against ffprobe: an ffmpeg-made file with B-frames and an uneven frame rate, decoded through
/// the source, gives every picture ffprobe decodes, at the times ffprobe gives them, each lasting until the next.
@Suite(.enabled(if: LiveTestSupport.toolsAvailable))
struct DecodedVideoSourceTests {
    /// The presentation times, in seconds, of the pictures ffprobe decodes from a file's first video stream.
    private static func probedTimes(_ path: String) async throws -> [Double] {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                                        "-of", "csv=p=0", path])
        // A line may end in a comma (an empty side-data column): the time is the first field.
        return output.text.split(whereSeparator: \.isNewline).compactMap { line in
            line.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// 40 pictures of x264 Main with two B-frames between references (with the FFmpeg engine's decoder; Constrained
    /// Baseline for the native one), 25 fps but with a 400 ms hole after picture 20 — the times a nominal frame
    /// duration would lose.
    @Test("pictures and their own times from a file with a hole in its frame rate (and B-frames where the engine decodes them)",
          arguments: ["mp4", "flv"])
    func picturesKeepTheirOwnTimes(container: String) async throws {
        // The native decoder (the pure build's) reads Constrained Baseline: no B-frames there, the hole all the same.
        let hasFFmpegEngine = CodecEngineRegistry.default.engines.contains { $0.name == "x264" }
        let profile = hasFFmpegEngine ? ["-profile:v", "main", "-bf", "2"] : ["-profile:v", "baseline", "-bf", "0"]
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("in.\(container)").path
        _ = try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-frames:v", "40",
                                                    "-vf", "setpts='(N+if(gte(N,20),10,0))/(25*TB)'", "-fps_mode", "passthrough",
                                                    "-c:v", "libx264"] + profile + ["-g", "50", "-pix_fmt", "yuv420p", path])
        let expected = try await Self.probedTimes(path)
        try #require(expected.count == 40, "ffprobe decodes \(expected.count) pictures")

        let source = try await DecodedVideoSource.open(container == "mp4" ? MP4FileSource(path: path, pacing: .asFastAsPossible)
                                                                          : FLVFileSource(path: path, pacing: .asFastAsPossible))
        var frames: [CapturedFrame] = []
        while let frame = try await source.nextFrame() { frames.append(frame) }

        #expect(frames.count == expected.count, "decoded \(frames.count) of \(expected.count) pictures")
        guard let first = frames.first, let firstExpected = expected.first else { return }
        for (index, frame) in frames.enumerated() where index < expected.count {
            let time = frame.pts.seconds - first.pts.seconds, wanted = expected[index] - firstExpected
            #expect(abs(time - wanted) < 0.0015, "picture \(index) at \(time) s, ffprobe says \(wanted) s")
            if index + 1 < expected.count {
                let gap = expected[index + 1] - expected[index]
                #expect(abs(frame.duration.seconds - gap) < 0.0015, "picture \(index) lasts \(frame.duration.seconds) s, until the next: \(gap) s")
            }
        }
        #expect(frames.indices.contains(19) && abs(frames[19].duration.seconds - 0.44) < 0.0015, "the hole after picture 20 is kept")
    }
}

import Foundation
import StreamKit
import Testing
import TestSupport

/// Files as sources of the pipeline: encoded files (FLV, MP4, Annex B) sent as they are, and raw files (Y4M, WAV)
/// played as a camera and a microphone. ffmpeg makes the inputs and judges the outputs.
@Suite(.enabled(if: LiveTestSupport.toolsAvailable))
struct FileSourceTests {
    /// Makes a 2-second H.264 + AAC input with ffmpeg (50 pictures at 25 fps, a key frame every 25).
    private static func makeInput(_ path: String, audio: Bool = true) async throws {
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=2"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"] }
        arguments += ["-c:v", "libx264", "-profile:v", "baseline", "-g", "25", "-pix_fmt", "yuv420p"]
        if audio { arguments += ["-c:a", "aac", "-b:a", "64k"] }
        _ = try await ExternalTool.check("ffmpeg", arguments + [path])
    }

    /// The md5 of each packet of a stream, as ffmpeg copies it (`-c copy -f framemd5`): the coded bytes themselves.
    private static func packetHashes(_ path: String, stream: String) async throws -> [String] {
        let output = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:\(stream):0", "-c", "copy",
                                                       "-f", "framemd5", "-"])
        return FrameMD5.hashes(output.text)
    }

    /// An FLV file sent as it is into an MP4 recording: every picture and audio frame arrives with the same bytes (as
    /// ffmpeg copies them), in a pipeline with no encoder at all; the report says nothing was encoded.
    @Test func anFLVFileIsCopiedIntoAnMP4Recording() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let flv = directory.appendingPathComponent("in.flv").path, mp4 = directory.appendingPathComponent("out.mp4").path
        try await Self.makeInput(flv)
        let pipeline = LivePipeline(source: FLVFileSource(path: flv, pacing: .asFastAsPossible), delivery: .waitForSlowest)
        pipeline.add(MP4FileDestination(path: mp4))
        let report = try await pipeline.run()

        #expect(report.isPassThrough && report.picturesEncoded == 50, "\(report)")
        #expect(report.destinations.first?.videoFramesSent == 50 && report.destinations.first?.framesDropped == 0, "\(report)")
        #expect(try await Self.packetHashes(mp4, stream: "v") == Self.packetHashes(flv, stream: "v"))
        #expect(try await Self.packetHashes(mp4, stream: "a") == Self.packetHashes(flv, stream: "a"))
        #expect("\(report)".hasPrefix("sent 50 pictures and"), "\(report)")
    }

    /// An MP4 file into an Annex B file and an ADTS file: the pictures decode to the same images, and the AAC frames are
    /// the source's.
    @Test func anMP4FileIsSplitIntoElementaryStreams() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let mp4 = directory.appendingPathComponent("in.mp4").path
        let (h264, aac) = (directory.appendingPathComponent("out.h264").path, directory.appendingPathComponent("out.aac").path)
        try await Self.makeInput(mp4)
        let pipeline = LivePipeline(source: MP4FileSource(path: mp4, pacing: .asFastAsPossible), delivery: .waitForSlowest)
        pipeline.add(AnnexBFileDestination(path: h264))
        pipeline.add(ADTSFileDestination(path: aac))
        let report = try await pipeline.run()

        #expect(report.destinations.map(\.failure) == [nil, nil], "\(report)")
        #expect(try await LiveTestSupport.pictureHashes(h264) == LiveTestSupport.pictureHashes(mp4))
        // The MP4's edit list hides the encoder's priming; the ADTS file has none: compare every decoded sample.
        let adtsSamples = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", aac, "-f", "md5", "-"]).text
        let mp4Samples = try await ExternalTool.check("ffmpeg", ["-v", "error", "-ignore_editlist", "1", "-i", mp4, "-map", "0:a", "-f", "md5", "-"]).text
        #expect(adtsSamples == mp4Samples, "the AAC frames are the MP4's")
    }

    /// An Annex B file paced in real time: 50 pictures at 25 fps take about two seconds, and arrive whole.
    @Test func anAnnexBFileIsPacedAtItsFrameRate() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = directory.appendingPathComponent("in.h264").path, output = directory.appendingPathComponent("out.mp4").path
        try await Self.makeInput(input, audio: false)
        let source = AnnexBFileSource(path: input, codec: .h264, pacing: .realTime)
        let pipeline = LivePipeline(source: source)
        pipeline.add(MP4FileDestination(path: output))
        let started = ContinuousClock.now
        let report = try await pipeline.run()
        let elapsed = ContinuousClock.now - started

        #expect(elapsed >= .milliseconds(1900), "paced: the 49 gaps of 40 ms take 1.96 s, took \(elapsed)")
        #expect(report.destinations.first?.videoFramesSent == 50, "\(report)")
        #expect(try await LiveTestSupport.pictureHashes(output) == LiveTestSupport.pictureHashes(input))
    }

    /// A Y4M file looped as a camera and a WAV file looped as a microphone, as fast as the encoder takes them: the
    /// pictures go round twice with growing timestamps, the sound follows them.
    @Test func aY4MFileLoopsAsACamera() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let y4m = directory.appendingPathComponent("in.y4m").path, wav = directory.appendingPathComponent("in.wav").path
        let output = directory.appendingPathComponent("out.mp4").path
        _ = try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=128x96:rate=30:duration=0.5",
                                                 "-pix_fmt", "yuv420p", y4m])
        _ = try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.5",
                                                 "-ac", "2", wav])
        let camera = try VideoFileSource(y4mPath: y4m, pacing: .asFastAsPossible, loops: true)
        #expect(camera.width == 128 && camera.height == 96 && camera.frameRate == 30)
        var configuration = LiveConfiguration(video: LiveTestSupport.video())
        configuration.frameLimit = 30
        configuration.delivery = .waitForSlowest
        let microphone = try WAVFileSource(path: wav, pacing: .asFastAsPossible, loops: true)
        let pipeline = LivePipeline(video: camera, audio: microphone, configuration: configuration)
        pipeline.add(MP4FileDestination(path: output))
        let report = try await pipeline.run()

        #expect(report.picturesEncoded == 30, "15 pictures, twice: \(report)")
        let hashes = try await LiveTestSupport.pictureHashes(output)
        #expect(hashes.count == 30)
        let times = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                                                            "-of", "csv=p=0", output])
        let last = times.text.split(separator: "\n").compactMap { Double($0) }.max() ?? 0
        #expect(abs(last - 29.0 / 30) < 0.01, "timestamps grow across the loop: the last picture at \(last) s")
    }

    /// A file that is not what it says fails the pipeline with the source named and the kind of failure.
    @Test func aDamagedFileFailsWithItsName() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("bad.flv").path
        try Data("this is not an flv file".utf8).write(to: URL(fileURLWithPath: path))
        let pipeline = LivePipeline(source: FLVFileSource(path: path))
        pipeline.add(MP4FileDestination(path: directory.appendingPathComponent("out.mp4").path))
        do {
            _ = try await pipeline.run()
            Issue.record("a file that is not FLV must fail")
        } catch {
            guard case let .input(failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.source == path && failure.kind == .malformed, "\(failure)")
        }
    }
}

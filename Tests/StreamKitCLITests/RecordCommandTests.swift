#if FFmpeg
import Foundation
import Testing
import TestSupport

/// The README's main job: `streamkit record` with its defaults (the seeds' demo: 200 frames → test.h264 +
/// test.aac), checked with ffprobe.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct RecordCommandTests {
    @Test func demoRecordingIsWhatFFprobeExpects() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let video = directory.appendingPathComponent("test.h264").path
        let audio = directory.appendingPathComponent("test.aac").path
        let output = try CLI.run(["record", "-o", video, "--audio-output", audio])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("synthetic camera") || output.standardError.contains("V4L2"))

        let stream = try #require(try CLI.probe(video, ["-count_frames", "-show_streams", "-select_streams", "v:0"]).first)
        #expect(stream["codec_name"] == "h264" && stream["profile"] == "High")
        #expect(stream["width"] == "640" && stream["height"] == "480")
        #expect(stream["nb_read_frames"] == "200")
        #expect(stream["r_frame_rate"] == "30/1")
        let frames = try CLI.probe(video, ["-show_frames", "-show_entries", "frame=key_frame,pict_type"])
        #expect(frames.count == 200)
        let keys = frames.enumerated().filter { $0.element["key_frame"] == "1" }.map(\.offset)
        #expect(keys == Array(stride(from: 0, to: 200, by: 30)), "key frames every --gop (default: one per second)")
        #expect(!frames.contains { $0["pict_type"] == "B" }, "no B-frames unless asked for")
        let explode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", video, "-f", "null", "-"])
        #expect(explode.status == 0 && explode.standardError.isEmpty)

        let audioStream = try #require(try CLI.probe(audio, ["-show_streams", "-select_streams", "a:0"]).first)
        #expect(audioStream["codec_name"] == "aac" && audioStream["profile"] == "LC")
        #expect(audioStream["sample_rate"] == "44100" && audioStream["channels"] == "1")
        // ADTS carries no duration: count AAC frames (1024 samples each, the first being the encoder's priming).
        let packets = try CLI.probe(audio, ["-show_packets", "-select_streams", "a:0", "-show_entries", "packet=size"]).count
        let seconds = Double((packets - 1) * 1024) / 44100
        // The audio lasts as long as the pictures' capture times: a frame the camera dropped (a slow machine) counts.
        let dropped = CLI.framesTheCameraDropped(output.standardError)
        let expected = Double(200 + dropped) / 30
        #expect(abs(seconds - expected) <= 1024.0 / 44100, "audio lasts \(seconds) s, the pictures \(expected) s")
    }

    @Test func keyFrameIntervalAndBFramesFollowTheOptions() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let video = directory.appendingPathComponent("gop.h264").path
        let output = try CLI.run(["record", "-o", video, "--no-audio", "--frames", "40", "--gop", "10", "--bframes", "2",
                                  "--size", "320x240", "--fps", "60"])
        #expect(output.status == 0, "\(output.standardError)")
        let frames = try CLI.probe(video, ["-show_frames", "-show_entries", "frame=key_frame,pict_type"])
        #expect(frames.count == 40)
        #expect(frames.enumerated().filter { $0.element["key_frame"] == "1" }.map(\.offset) == [0, 10, 20, 30])
        #expect(frames.contains { $0["pict_type"] == "B" })
        let stream = try #require(try CLI.probe(video, ["-show_streams"]).first)
        #expect(stream["r_frame_rate"] == "60/1" && stream["width"] == "320")
    }

    @Test func hevcRecordingHasParameterSetsBeforeEveryKeyFrame() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let video = directory.appendingPathComponent("test.h265").path
        let output = try CLI.run(["record", "--codec", "hevc", "-o", video, "--no-audio", "--frames", "30", "--gop", "10",
                                  "--size", "320x240"])
        #expect(output.status == 0, "\(output.standardError)")
        let inspect = try CLI.run(["inspect", "--json", video])
        let object = try #require(try JSONSerialization.jsonObject(with: inspect.standardOutput) as? [String: Any])
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.count == 30)
        for frame in frames where frame["key"] as? Bool == true {
            #expect(Array((frame["nal_types"] as? [Int] ?? []).prefix(3)) == [32, 33, 34])
        }
        #expect(frames.filter { $0["key"] as? Bool == true }.count == 3)
    }
}
#endif

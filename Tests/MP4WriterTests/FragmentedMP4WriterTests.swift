#if FFmpeg
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The fragmented MP4 writer, checked with ffprobe and ffmpeg.
@Suite("Fragmented MP4 writer", .enabled(if: MP4TestMedia.toolsAvailable))
struct FragmentedMP4WriterTests {
    @Test("H.264 + AAC: ffprobe reads codec, profile, size, frames, rate, start 0; clean decode; same pictures as Annex B")
    func videoAndAudio() async throws {
        let video = try await MP4TestMedia.video(count: 90, keyFrameInterval: 30)
        let audio = try await MP4TestMedia.audio(seconds: 3)
        let videoFormat = try #require(video.first?.format)
        let audioFormat = try #require(audio.first?.format)
        #expect(audioFormat.encoderDelay == 1024)
        let path = try MP4TestMedia.path("fragmented.mp4")
        var writer = try FragmentedMP4Writer(path: path, tracks: [.video(videoFormat), .audio(audioFormat)])
        var fragments: [MP4Fragment] = []
        writer.onFragment = { fragments.append($0) }
        var audioIndex = 0
        for frame in video {
            try writer.append(frame, toTrack: 0)
            while audioIndex < audio.count, audio[audioIndex].pts < frame.dts {
                try writer.append(audio[audioIndex], toTrack: 1)
                audioIndex += 1
            }
        }
        for frame in audio[audioIndex...] { try writer.append(frame, toTrack: 1) }
        try writer.finish()

        #expect(fragments.count == 3)
        #expect(fragments.allSatisfy { $0.startsWithKeyFrame })
        let streams = try MP4TestMedia.streams(path)
        try #require(streams.count == 2)
        #expect(streams[0]["codec_name"] == "h264")
        #expect(streams[0]["profile"] == videoFormat.profileLevel.profileName)
        #expect(streams[0]["width"] == "320" && streams[0]["height"] == "240")
        #expect(streams[0]["r_frame_rate"] == "30/1")
        #expect(Double(streams[0]["start_time"] ?? "") == 0)
        #expect(streams[1]["codec_name"] == "aac")
        #expect(streams[1]["sample_rate"] == "48000" && streams[1]["channels"] == "2")
        #expect(Double(streams[1]["start_time"] ?? "") == 0)
        #expect(try MP4TestMedia.packets(path, stream: "v:0").count == 90)
        #expect(try MP4TestMedia.decodeErrors(path) == "")
    }
}
#endif

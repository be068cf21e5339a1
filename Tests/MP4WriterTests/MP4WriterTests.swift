#if FFmpeg
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The classic MP4 writer (and the fragmented one on the same inputs), checked with ffprobe and ffmpeg.
@Suite("MP4 writer", .enabled(if: MP4TestMedia.toolsAvailable))
struct MP4WriterTests {
    /// Writes video and audio, interleaved by decode time, with either writer.
    static func write(video: [EncodedFrame], audio: [EncodedAudioFrame], to path: String, fragmented: Bool,
                      options: MP4WriterOptions = MP4WriterOptions(), carriesParameterSetsInBand: Bool = false) throws {
        var tracks: [MP4TrackDescription] = []
        if let format = video.first?.format { tracks.append(.video(format, carriesParameterSetsInBand: carriesParameterSetsInBand)) }
        if let format = audio.first?.format { tracks.append(.audio(format)) }
        let audioTrack = video.isEmpty ? 0 : 1
        var samples: [(MP4Sample, Int)] = video.map { (MP4Sample($0), 0) } + audio.map { (MP4Sample($0), audioTrack) }
        samples.sort { $0.0.dts < $1.0.dts }  // stable for each track: its own order is kept
        if fragmented {
            var writer = try FragmentedMP4Writer(path: path, tracks: tracks)
            for (sample, track) in samples { try writer.append(sample, toTrack: track) }
            try writer.finish()
        } else {
            var writer = try MP4Writer(path: path, tracks: tracks, options: options)
            for (sample, track) in samples { try writer.append(sample, toTrack: track) }
            try writer.finish()
        }
    }

    @Test("H.264 + AAC, classic: ffprobe reads it all, start 0 on both tracks, A/V agree, clean decode, framemd5 = Annex B")
    func classic() async throws {
        let video = try await MP4TestMedia.video(count: 60)
        let audio = try await MP4TestMedia.audio(seconds: 2)
        let path = try MP4TestMedia.path("classic.mp4")
        try Self.write(video: video, audio: audio, to: path, fragmented: false)
        try Self.checkAudioVideo(path, video: video, audio: audio)
        // The same pictures as our Annex B file of the same encode.
        let annexB = try MP4TestMedia.path("classic.h264")
        var writer = try AnnexBWriter(path: annexB)
        for frame in video { try writer.write(frame) }
        try writer.finish()
        let expected = try MP4TestMedia.videoFrameMD5(annexB, format: "h264")
        #expect(expected.count == 60)
        #expect(try MP4TestMedia.videoFrameMD5(path) == expected)
    }

    @Test("faststart: moov before mdat, same streams and pictures as without")
    func faststart() async throws {
        let video = try await MP4TestMedia.video(count: 45)
        let audio = try await MP4TestMedia.audio(seconds: 1.5)
        let plain = try MP4TestMedia.path("plain.mp4"), fast = try MP4TestMedia.path("fast.mp4")
        try Self.write(video: video, audio: audio, to: plain, fragmented: false)
        try Self.write(video: video, audio: audio, to: fast, fragmented: false, options: MP4WriterOptions(faststart: true))
        let order = try Self.topLevelBoxes(fast)
        #expect(order.firstIndex(of: "moov").map { $0 < (order.firstIndex(of: "mdat") ?? 0) } == true, "boxes \(order)")
        #expect(try Self.topLevelBoxes(plain).last == "moov")
        try Self.checkAudioVideo(fast, video: video, audio: audio)
        #expect(try MP4TestMedia.videoFrameMD5(fast) == MP4TestMedia.videoFrameMD5(plain))
    }

    @Test("co64 forced: ffprobe reads the same samples as with stco", arguments: [false, true])
    func largeOffsets(faststart: Bool) async throws {
        let video = try await MP4TestMedia.video(count: 30)
        let audio = try await MP4TestMedia.audio(seconds: 1)
        let path = try MP4TestMedia.path("co64.mp4")
        try Self.write(video: video, audio: audio, to: path, fragmented: false,
                       options: MP4WriterOptions(faststart: faststart, usesLargeChunkOffsets: true))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(MP4Boxes.payloads(of: "co64", in: bytes).count == 2)
        #expect(MP4Boxes.payloads(of: "stco", in: bytes).isEmpty)
        try Self.checkAudioVideo(path, video: video, audio: audio)
    }

    @Test("B-frames (x264, frame reordering): ffprobe's pts/dts are the encoder's, start 0, both writers", arguments: [false, true])
    func bFrames(fragmented: Bool) async throws {
        let video = try await MP4TestMedia.video(count: 60, bFrames: true)
        #expect(video.contains { $0.pts != $0.dts }, "the encoder reordered nothing")
        let path = try MP4TestMedia.path(fragmented ? "bframes-frag.mp4" : "bframes.mp4")
        try Self.write(video: video, audio: [], to: path, fragmented: fragmented)
        let packets = try MP4TestMedia.packets(path, stream: "v:0")
        let firstPTS = try #require(video.first?.pts)
        #expect(packets.map(\.pts) == video.map { ($0.pts - firstPTS).converted(to: 90_000).value })
        #expect(packets.map(\.dts) == video.map { ($0.dts - firstPTS).converted(to: 90_000).value })
        #expect(packets.map(\.key) == video.map(\.isKeyFrame))
        let stream = try #require(try MP4TestMedia.streams(path).first)
        #expect(Double(stream["start_time"] ?? "") == 0)
        #expect(fragmented || stream["nb_frames"] == "60")
        #expect(try MP4TestMedia.decodeErrors(path) == "")
        #expect(try MP4TestMedia.videoFrameMD5(path).count == 60)
    }

    @Test("H.265: hvc1 and hev1 (parameter sets in band), classic and fragmented", arguments: [(false, false), (true, false), (false, true), (true, true)])
    func hevc(inBand: Bool, fragmented: Bool) async throws {
        let video = try await MP4TestMedia.video(codec: .hevc, count: 40)
        let path = try MP4TestMedia.path("hevc-\(inBand)-\(fragmented).mp4")
        try Self.write(video: video, audio: [], to: path, fragmented: fragmented, carriesParameterSetsInBand: inBand)
        let stream = try #require(try MP4TestMedia.streams(path).first)
        #expect(stream["codec_name"] == "hevc")
        #expect(stream["codec_tag_string"] == (inBand ? "hev1" : "hvc1"))
        #expect(stream["profile"] == "Main")
        #expect(stream["width"] == "320" && stream["height"] == "240")
        #expect(try MP4TestMedia.packets(path, stream: "v:0").count == 40)
        #expect(try MP4TestMedia.decodeErrors(path) == "")
        #expect(try MP4TestMedia.videoFrameMD5(path).count == 40)
    }

    @Test("AAC alone (.m4a): start 0, every frame, duration")
    func audioOnly() async throws {
        let audio = try await MP4TestMedia.audio(seconds: 2, sampleRate: 44_100, channels: 1)
        let path = try MP4TestMedia.path("audio.m4a")
        try Self.write(video: [], audio: audio, to: path, fragmented: false)
        let stream = try #require(try MP4TestMedia.streams(path).first)
        #expect(stream["codec_name"] == "aac" && stream["profile"] == "LC")
        #expect(stream["sample_rate"] == "44100" && stream["channels"] == "1")
        #expect(Double(stream["start_time"] ?? "") == 0)
        #expect(stream["nb_frames"] == "\(audio.count)")
        // The duration is every frame's minus the encoder delay the edit list skips.
        let duration = try #require(Double(stream["duration"] ?? ""))
        let frames = audio.reduce(MediaTime.zero) { $0 + $1.duration }
        let delay = Double(try #require(audio.first).format.encoderDelay) / 44_100
        #expect(abs(duration - (frames.seconds - delay)) < 0.001, "duration \(duration), frames \(frames.seconds) s")
        #expect(try MP4TestMedia.decodeErrors(path) == "")
    }

    // MARK: - Checks

    /// ffprobe on a video + audio file: codec, profile, size, frame count, frame rate, start 0, A/V agreement.
    static func checkAudioVideo(_ path: String, video: [EncodedFrame], audio: [EncodedAudioFrame]) throws {
        let streams = try MP4TestMedia.streams(path)
        try #require(streams.count == 2)
        let format = try #require(video.first?.format)
        #expect(streams[0]["codec_name"] == "h264")
        #expect(streams[0]["profile"] == format.profileLevel.profileName)
        #expect(streams[0]["width"] == "\(format.width)" && streams[0]["height"] == "\(format.height)")
        #expect(streams[0]["nb_frames"] == "\(video.count)")
        #expect(streams[0]["r_frame_rate"] == "30/1")
        #expect(streams[1]["codec_name"] == "aac")
        #expect(streams[1]["nb_frames"] == "\(audio.count)")
        let videoStart = try #require(Double(streams[0]["start_time"] ?? ""))
        let audioStart = try #require(Double(streams[1]["start_time"] ?? ""))
        #expect(videoStart == 0 && audioStart == 0)
        let videoDuration = try #require(Double(streams[0]["duration"] ?? ""))
        let audioDuration = try #require(Double(streams[1]["duration"] ?? ""))
        #expect(abs(videoDuration - Double(video.count) / 30) < 0.001)
        #expect(abs(videoDuration - audioDuration) <= 1.0 / 30, "video \(videoDuration) s, audio \(audioDuration) s")
        #expect(try MP4TestMedia.packets(path, stream: "v:0").count == video.count)
        #expect(try MP4TestMedia.decodeErrors(path) == "")
    }

    /// The types of the top-level boxes, in file order.
    static func topLevelBoxes(_ path: String) throws -> [String] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var names: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if size == 1, offset + 16 <= bytes.count { size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) } }
            names.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return names
    }
}
#endif

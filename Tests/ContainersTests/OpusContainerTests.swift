import Bitstream
import Containers
import Foundation
import MediaCore
import Opus
import Testing
import TestSupport

/// Opus in MP4 (the `Opus` sample entry with `dOps`) and in MPEG-TS (`TSOpusMapping`), against streams FFmpeg
/// writes with libopus: what we read is FFmpeg's packets byte for byte, and what we write FFmpeg reads, probes and
/// decodes with `-err_detect explode`.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct OpusContainerTests {
    /// 2 s of a 440/660 Hz stereo tone, encoded by ffmpeg's libopus at 96 kbit/s into `name` (container from the
    /// extension, extra arguments after the codec).
    static func ffmpegOpus(_ name: String, channels: Int = 2, extra: [String] = []) throws -> String {
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent(name).path
        _ = try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                              "aevalsrc=0.4*sin(2*PI*440*t)|0.3*sin(2*PI*660*t):s=48000:d=2",
                                              "-ac", "\(channels)", "-c:a", "libopus", "-b:a", "96k"] + extra + [path])
        return path
    }

    /// The packets of the first audio stream as ffmpeg demuxes them (`-c copy`): their sizes and their bytes joined.
    static func ffmpegPackets(_ path: String) throws -> (sizes: [Int], bytes: Data) {
        let probe = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size",
                                                       "-of", "csv=p=0", path])
        // A packet with side data (the skip samples of the pre-skip, the PES stream id) ends its line with a comma.
        let sizes = probe.text.split(separator: "\n").compactMap { Int($0.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) ?? "") }
        let data = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-c", "copy", "-f", "data", "-"])
        return (sizes, data.standardOutput)
    }

    static func probe(_ path: String) throws -> [String: String] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                        "stream=codec_name,sample_rate,channels:format=duration",
                                                        "-of", "default=nw=1", path])
        var info: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { info[String(parts[0])] = String(parts[1]) }
        }
        return info
    }

    @Test("ffmpeg's Opus MP4: dOps read (stereo, pre-skip 312), remuxed to exactly ffmpeg's -c copy packets, probed and decoded")
    func mp4ReadAndRemux() throws {
        let input = try Self.ffmpegOpus("ffmpeg-opus.mp4")
        let file = try MP4File(contentsOf: input)
        let track = try #require(file.tracks.first)
        guard case let .audio(format) = track.format else { Issue.record("not audio: \(track.format)"); return }
        #expect(format.codec == .opus && format.sampleRate == 48000 && format.channelCount == 2)
        let head = try OpusIdentificationHeader(opusHead: format.audioSpecificConfig)
        #expect(head.preSkip == 312 && head.channelCount == 2 && head.mappingFamily == 0)
        let theirs = try Self.ffmpegPackets(input)
        let ours = file.samples(of: track).map { Array($0.data) }
        #expect(ours.map(\.count) == theirs.sizes)
        #expect(Data(ours.joined()) == theirs.bytes)

        let output = try ExternalTool.temporaryDirectory().appendingPathComponent("remuxed-opus.mp4").path
        let summary = try MP4Remuxer.remux(file, to: output)
        #expect(summary.copiedTracks == [0])
        let copied = try Self.ffmpegPackets(output)
        #expect(copied.sizes == theirs.sizes)
        #expect(copied.bytes == theirs.bytes)
        let md5Theirs = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-f", "framemd5", "-"]).text
        let md5Ours = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", output, "-c", "copy", "-f", "framemd5", "-"]).text
        #expect(FrameMD5.hashes(md5Ours) == FrameMD5.hashes(md5Theirs))
        let info = try Self.probe(output)
        #expect(info["codec_name"] == "opus" && info["sample_rate"] == "48000" && info["channels"] == "2")
        let duration = try #require(Double(info["duration"] ?? ""))
        #expect(abs(duration - 2.0) < 0.03, "duration \(duration)")
        let decode = try ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", output, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
    }

    @Test("ffmpeg's Opus MPEG-TS: demuxed to exactly ffmpeg's -c copy packets (control headers off), channels from the descriptor",
          arguments: [1, 2])
    func tsRead(channels: Int) throws {
        let input = try Self.ffmpegOpus("ffmpeg-opus-\(channels).ts", channels: channels)
        var reader = TSMediaReader()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
        var frames: [EncodedAudioFrame] = []
        var issues: [TSStreamIssue] = []
        var start = 0
        while start < bytes.count {
            // Chunks cut anywhere, as a socket delivers them.
            let end = min(bytes.count, start + 1000 + start % 777)
            for event in reader.append(bytes[start..<end]) {
                if case let .audio(frame, _) = event { frames.append(frame) }
                if case let .issue(issue) = event { issues.append(issue) }
            }
            start = end
        }
        for event in reader.finish() {
            if case let .audio(frame, _) = event { frames.append(frame) }
            if case let .issue(issue) = event { issues.append(issue) }
        }
        #expect(issues.isEmpty, "\(issues)")
        let theirs = try Self.ffmpegPackets(input)
        #expect(frames.map(\.data.count) == theirs.sizes)
        #expect(Data(frames.map(\.data).joined()) == theirs.bytes)
        #expect(frames.first?.format.codec == .opus && frames.first?.format.channelCount == channels)
        // Times: ffprobe's packet pts (90 kHz) are ours.
        let pts = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts",
                                                     "-of", "csv=p=0", input]).text
        #expect(frames.map(\.pts.value) == pts.split(separator: "\n").compactMap { Int64($0.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) ?? "") })
    }

    @Test("Opus written into MPEG-TS (grouped, or one unit per PES packet): ffprobe reads opus 48 kHz stereo, ffmpeg decodes with explode, -c copy gives our packets back",
          arguments: [false, true])
    func tsWrite(onePerPES: Bool) throws {
        let input = try Self.ffmpegOpus("source-opus.mp4")
        let file = try MP4File(contentsOf: input)
        let track = try #require(file.tracks.first)
        guard case let .audio(format) = track.format else { Issue.record("not audio"); return }
        let samples = file.samples(of: track)
        var format312 = format
        format312.encoderDelay = 312
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("ours-opus.ts").path
        var writer = try TSWriter(path: path, configuration: .init(video: nil, audio: format312, timestampOffset: 126_000,
                                                                   audioPayloadSize: onePerPES ? 0 : 2930))
        for sample in samples {
            try writer.append(sample.encodedAudioFrame(format: format312))
        }
        try writer.finish()
        let info = try Self.probe(path)
        #expect(info["codec_name"] == "opus" && info["sample_rate"] == "48000" && info["channels"] == "2")
        let decode = try ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
        let copied = try Self.ffmpegPackets(path)
        #expect(copied.sizes == samples.map(\.data.count))
        #expect(copied.bytes == Data(samples.map { Array($0.data) }.joined()))
        // And our reader reads our own stream back, the pre-skip from the first start_trim.
        var reader = TSMediaReader()
        var frames: [EncodedAudioFrame] = []
        for event in reader.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) {
            if case let .audio(frame, _) = event { frames.append(frame) }
        }
        for event in reader.finish() { if case let .audio(frame, _) = event { frames.append(frame) } }
        #expect(frames.map(\.data) == samples.map { Array($0.data) })
        #expect(frames.first?.format.encoderDelay == 312)
    }
}

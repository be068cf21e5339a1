import Bitstream
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// MPEG-TS against FFmpeg and GStreamer, both ways: what ``TSWriter`` writes is read by ffprobe with every
/// packet's pts/dts, decoded by ffmpeg under `-err_detect explode`, and its elementary streams are ours; what
/// ffmpeg (x264 with B-frames, x265, AAC) and GStreamer's `mpegtsmux` write demuxes to ffmpeg's own `-c copy`
/// elementary streams, byte for byte, with ffprobe's pts and dts.
@Suite("MPEG-TS against FFmpeg and GStreamer")
struct TSOracleTests {
    /// FFmpeg's 1.4 s: x264's B-frames start at a negative decode time.
    static let offset: Int64 = 126_000

    /// Writes an MP4's frames into a TS with our writer, both tracks in decode order.
    static func writeTS(video: [EncodedFrame], audio: [EncodedAudioFrame], videoFormat: FormatDescription?,
                        audioFormat: AudioFormatDescription?, to path: String) throws {
        var writer = try TSWriter(path: path, configuration: .init(video: videoFormat, audio: audioFormat, timestampOffset: offset))
        var v = 0, a = 0
        while v < video.count || a < audio.count {
            if a >= audio.count || (v < video.count && video[v].dts <= audio[a].pts) {
                try writer.append(video[v]); v += 1
            } else {
                try writer.append(audio[a]); a += 1
            }
        }
        try writer.finish()
    }

    /// Checks a TS we wrote against ffprobe and ffmpeg.
    static func check(ours path: String, video: [EncodedFrame], audio: [EncodedAudioFrame], in directory: URL) throws {
        let packets = try TSTestSupport.packets(of: path)
        let videoPackets = packets.filter { $0["codec_type"] == "video" }
        let audioPackets = packets.filter { $0["codec_type"] == "audio" }
        #expect(videoPackets.count == video.count)
        #expect(audioPackets.count == audio.count)
        for (packet, frame) in zip(videoPackets, video) {
            #expect(packet["pts"] == "\(frame.pts.converted(to: 90_000).value + offset)")
            #expect(packet["dts"] == "\(frame.dts.converted(to: 90_000).value + offset)")
            #expect(packet["flags"]?.hasPrefix("K") == frame.isKeyFrame)
        }
        for (packet, frame) in zip(audioPackets, audio) { #expect(packet["pts"] == "\(frame.pts.converted(to: 90_000).value + offset)") }

        let decode = try ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "ffmpeg: \(decode.standardError)")

        if let first = video.first {
            let hevc = first.codec == .hevc
            let stream = try TSTestSupport.ffmpegElementaryStream(of: path, format: hevc ? "hevc" : "h264", in: directory)
            let sameUnits = TSTestSupport.nalUnits(ofAnnexB: stream, hevc: hevc) == TSTestSupport.nalUnits(of: video)
            #expect(sameUnits, "ffmpeg's elementary stream holds the NAL units we wrote")
            // Our own demuxer gives ffmpeg's elementary stream byte for byte, and the frames we wrote.
            let ours = TSTestSupport.demux([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            let sameStream = ours.elementaryStream(video: true) == stream
            #expect(sameStream, "our demuxer gives ffmpeg's elementary stream")
            #expect(ours.issues.isEmpty, "\(ours.issues)")
            let demuxedUnits = ours.video.flatMap { frame in frame.nalUnitRanges.map { Array(frame.data[$0]) } }
            let same = demuxedUnits == TSTestSupport.nalUnits(of: video)
            #expect(same, "the NAL units our reader gives are the ones we wrote")
            let sameTimes = ours.video.map(\.pts.value) == video.map { $0.pts.converted(to: 90_000).value + offset }
            #expect(sameTimes, "our reader gives the presentation times we wrote")
            let sameAudio = ours.audio.map(\.data) == audio.map(\.data)
            #expect(sameAudio, "the AAC frames our reader gives are the ones we wrote")
        }
        if !audio.isEmpty {
            let stream = try TSTestSupport.ffmpegElementaryStream(of: path, format: "adts", in: directory)
            var adts = ADTSWriter(sink: MemoryByteSink())
            for frame in audio { try adts.write(frame) }
            let sameADTS = stream == adts.sink.bytes
            #expect(sameADTS, "ffmpeg's ADTS stream is ours (\(stream.count) and \(adts.sink.bytes.count) bytes)")
        }
    }

    @Test("ffprobe and ffmpeg read our H.264 (B-frames) + AAC TS: every pts/dts, no decode error, the same elementary streams",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func writesH264AndAAC() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = directory.appendingPathComponent("source.mp4").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2",
                                          "-c:v", "libx264", "-bf", "2", "-g", "12", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", mp4])
        let (video, audio, videoFormat, audioFormat) = try FLVOracleTests.frames(of: mp4)
        #expect(video.contains { $0.dts < $0.pts }, "B-frames")
        let ts = directory.appendingPathComponent("ours.ts").path
        try Self.writeTS(video: video, audio: audio, videoFormat: videoFormat, audioFormat: audioFormat, to: ts)
        try Self.check(ours: ts, video: video, audio: audio, in: directory)
        try Self.checkLayout(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: ts))), keyFrames: video.filter(\.isKeyFrame).count)
        let streams = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,sample_rate",
                                                         "-of", "csv=p=0", ts]).text
        #expect(Set(streams.split(separator: "\n")) == ["aac,48000", "h264,160"])
    }

    /// The packet layout of a TS we wrote (§2.4.3): every continuity counter in sequence, a PCR on the video PID at
    /// least every 40 ms, `random_access_indicator` on every key frame, PAT and PMT before each.
    static func checkLayout(of bytes: [UInt8], keyFrames: Int) throws {
        #expect(bytes.count % 188 == 0)
        var counters: [UInt16: UInt8] = [:]
        var pcrs: [Int64] = []
        var randomAccess = 0
        var tablesBeforeRandomAccess = 0
        var lastTwoPIDs: [UInt16] = []
        for start in stride(from: 0, to: bytes.count, by: 188) {
            #expect(bytes[start] == 0x47)
            let pid = UInt16(bytes[start + 1] & 0x1F) << 8 | UInt16(bytes[start + 2])
            let control = bytes[start + 3] >> 4 & 3, counter = bytes[start + 3] & 0x0F
            if control & 1 != 0 {
                if let last = counters[pid] { #expect(counter == (last + 1) & 0x0F, "PID \(pid) at byte \(start)") }
                counters[pid] = counter
            }
            if control & 2 != 0, bytes[start + 4] > 0 {
                let flags = bytes[start + 5]
                if flags & 0x10 != 0 {
                    #expect(pid == 0x100)
                    let b = (start + 6..<start + 11).map { Int64(bytes[$0]) }
                    pcrs.append(b[0] << 25 | b[1] << 17 | b[2] << 9 | b[3] << 1 | b[4] >> 7)
                }
                if flags & 0x40 != 0, pid == 0x100 {
                    randomAccess += 1
                    if lastTwoPIDs == [0, 0x1000] { tablesBeforeRandomAccess += 1 }
                }
            }
            lastTwoPIDs = Array((lastTwoPIDs + [pid]).suffix(2))
        }
        #expect(randomAccess == keyFrames && tablesBeforeRandomAccess == keyFrames)
        let gaps = zip(pcrs.dropFirst(), pcrs).map { $0 - $1 }
        #expect(!pcrs.isEmpty && gaps.allSatisfy { (0...3600).contains($0) }, "PCR gaps \(gaps.max() ?? 0) ticks")
    }

    @Test("ffprobe and ffmpeg read our H.265 TS (x265, B-frames)", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func writesHEVC() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = directory.appendingPathComponent("source.mp4").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "40",
                                          "-c:v", "libx265", "-x265-params", "log-level=error:bframes=2:keyint=15", "-pix_fmt", "yuv420p", mp4])
        let (video, _, videoFormat, _) = try FLVOracleTests.frames(of: mp4)
        let ts = directory.appendingPathComponent("ours.ts").path
        try Self.writeTS(video: video, audio: [], videoFormat: videoFormat, audioFormat: nil, to: ts)
        try Self.check(ours: ts, video: video, audio: [], in: directory)
    }

    /// Checks our demuxer on a TS someone else wrote against ffmpeg's `-c copy` and ffprobe.
    static func checkDemux(of path: String, hevc: Bool, hasAudio: Bool, in directory: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for chunkSize in [188, 1000, 65_536] {
            let ours = TSTestSupport.demux(bytes, chunkSize: chunkSize)
            #expect(ours.issues.isEmpty, "\(ours.issues)")
            let videoStream = try TSTestSupport.ffmpegElementaryStream(of: path, format: hevc ? "hevc" : "h264", in: directory)
            let sameVideo = ours.elementaryStream(video: true) == videoStream
            #expect(sameVideo, "video elementary stream, chunks of \(chunkSize): \(ours.elementaryStream(video: true).count) and \(videoStream.count) bytes")
            let packets = try TSTestSupport.packets(of: path)
            let videoPackets = packets.filter { $0["codec_type"] == "video" }
            #expect(ours.video.count == videoPackets.count)
            for (packet, frame) in zip(videoPackets, ours.video) {
                #expect(packet["pts"] == "\(frame.pts.value)" && packet["dts"] == "\(frame.dts.value)")
                #expect(packet["flags"]?.hasPrefix("K") == frame.isKeyFrame)
            }
            let sameUnits = TSTestSupport.nalUnits(ofAnnexB: videoStream, hevc: hevc)
                == ours.video.flatMap { frame in frame.nalUnitRanges.map { Array(frame.data[$0]) } }
            #expect(sameUnits, "the frames' NAL units are ffmpeg's")
            guard hasAudio else { continue }
            let audioStream = try TSTestSupport.ffmpegElementaryStream(of: path, format: "adts", in: directory)
            let sameAudio = ours.elementaryStream(video: false) == audioStream
            #expect(sameAudio, "audio elementary stream: \(ours.elementaryStream(video: false).count) and \(audioStream.count) bytes")
            let audioPackets = packets.filter { $0["codec_type"] == "audio" }
            #expect(ours.audio.count == audioPackets.count)
            let audioTimes = ours.audio.map { "\($0.pts.value)" }, probed = audioPackets.map { $0["pts"] ?? "" }
            #expect(audioTimes == probed, "first differences: \(zip(audioTimes, probed).filter { $0 != $1 }.prefix(3))")
            let sizes = ours.audio.map(\.data.count) == audioPackets.map { (Int($0["size"] ?? "") ?? 0) - 7 }
            #expect(sizes, "audio frame sizes")
        }
    }

    @Test("ffmpeg's TS (x264 with B-frames + AAC) demuxes to ffmpeg's own elementary streams and pts/dts",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func demuxesFFmpegH264() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ts = directory.appendingPathComponent("ffmpeg.ts").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "3",
                                          "-c:v", "libx264", "-bf", "3", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", ts])
        try Self.checkDemux(of: ts, hevc: false, hasAudio: true, in: directory)
    }

    @Test("ffmpeg's TS (x265 + AAC) demuxes to ffmpeg's own elementary streams and pts/dts",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func demuxesFFmpegHEVC() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ts = directory.appendingPathComponent("ffmpeg-hevc.ts").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "2",
                                          "-c:v", "libx265", "-x265-params", "log-level=error:bframes=2:keyint=15", "-pix_fmt", "yuv420p",
                                          "-c:a", "aac", "-shortest", ts])
        try Self.checkDemux(of: ts, hevc: true, hasAudio: true, in: directory)
    }

    @Test("GStreamer's mpegtsmux (x264enc with B-frames + AAC) demuxes to ffmpeg's own elementary streams and pts/dts",
          .enabled(if: ExternalTool.isRunnable("gst-launch-1.0", "ffmpeg", "ffprobe")))
    func demuxesGStreamer() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ts = directory.appendingPathComponent("gstreamer.ts").path
        let pipeline = "videotestsrc num-buffers=60 ! video/x-raw,width=160,height=120,framerate=25/1 ! x264enc bframes=2 key-int-max=25 ! h264parse ! mpegtsmux name=mux ! filesink location=\(ts) "
            + "audiotestsrc num-buffers=100 ! audio/x-raw,rate=48000,channels=2 ! voaacenc ! aacparse ! mux."
        try ExternalTool.check("gst-launch-1.0", ["-q"] + pipeline.split(separator: " ").map(String.init))
        try Self.checkDemux(of: ts, hevc: false, hasAudio: true, in: directory)
    }

    @Test("The ExoPlayer TS samples read as ffprobe reads them: frame counts, times, bytes",
          .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")),
          arguments: [("encoded/sample_h265.ts", true, 30), ("encoded/sample_h264_no_access_unit_delimiters.ts", false, 3)])
    func readsExoPlayerSamples(file: String, hevc: Bool, frames: Int) throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ours = TSTestSupport.demux(try MediaFiles.bytes(file))
        #expect(ours.video.count == frames)
        #expect(ours.video.first?.format.codec == (hevc ? .hevc : .h264))
        try Self.checkDemux(of: MediaFiles.url(file).path, hevc: hevc, hasAudio: false, in: directory)
    }
}

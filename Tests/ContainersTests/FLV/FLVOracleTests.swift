import Bitstream
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// FLV files against FFmpeg, both ways: ffprobe/ffmpeg read what ``FLVWriter`` writes (codecs, packet
/// counts, timestamps, payloads, `onMetaData`), and what ffmpeg writes, read by ``FLVReader`` and
/// ``FLVElementaryStreamSource``, equals ffmpeg's own elementary streams byte for byte. H.265 goes through
/// Enhanced RTMP FLV with the modern FFmpeg (Debian's 5.1 does not read it).
@Suite("FLV files against FFmpeg")
struct FLVOracleTests {
    /// H.264 (x264, B-frames) + AAC in an MP4, made by ffmpeg.
    static func makeH264MP4(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("source.mp4").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2",
                                          "-c:v", "libx264", "-bf", "2", "-g", "12", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path])
        return path
    }

    /// H.265 (x265, B-frames) in an MP4, made by the modern FFmpeg.
    static func makeHEVCMP4(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("source-hevc.mp4").path
        try ModernFFmpeg.check(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "40",
                                "-c:v", "libx265", "-x265-params", "log-level=error:bframes=2:keyint=15", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// An elementary stream of an FLV file read with our reader.
    static func elementaryStream(of path: String, _ stream: FLVElementaryStreamSource<FileByteSource>.Stream) throws -> [UInt8] {
        let reader = try FLVReader(source: try FileByteSource(path: path))
        var source = FLVElementaryStreamSource(reader: reader, stream: stream)
        return try source.readToEnd()
    }

    /// Every tag of an FLV file read with our reader.
    static func tags(of path: String) throws -> [FLVTag] {
        var reader = try FLVReader(source: try FileByteSource(path: path))
        var tags: [FLVTag] = []
        while true {
            switch try reader.next() {
            case let .tag(tag, _): tags.append(tag)
            case .end: return tags
            case let .truncated(offset, field): throw TestFailure("\(path) cut off at \(offset) in \(field)")
            }
        }
    }

    /// The MP4's samples as frames, both tracks merged in decode order.
    static func frames(of path: String) throws -> (video: [EncodedFrame], audio: [EncodedAudioFrame], videoFormat: FormatDescription, audioFormat: AudioFormatDescription?) {
        let file = try MP4File(contentsOf: path)
        var video: [EncodedFrame] = [], audio: [EncodedAudioFrame] = []
        var videoFormat: FormatDescription?, audioFormat: AudioFormatDescription?
        for track in file.tracks {
            switch track.format {
            case let .video(format):
                videoFormat = format
                video = file.samples(of: track).map { $0.encodedFrame(format: format) }
            case let .audio(format):
                audioFormat = format
                audio = file.samples(of: track).map { $0.encodedAudioFrame(format: format) }
            case .unsupported: break
            }
        }
        guard let videoFormat else { throw TestFailure("\(path) has no video track") }
        return (video, audio, videoFormat, audioFormat)
    }

    /// Writes the MP4's frames into an FLV with our writer, interleaved by decode time.
    static func writeFLV(from mp4: String, to path: String) throws -> (video: [EncodedFrame], audio: [EncodedAudioFrame]) {
        let (video, audio, videoFormat, audioFormat) = try frames(of: mp4)
        var writer = try FLVWriter(sink: try FileByteSink(path: path),
                                   configuration: .init(video: videoFormat, audio: audioFormat, frameRate: 25))
        var v = 0, a = 0
        while v < video.count || a < audio.count {
            if a >= audio.count || (v < video.count && video[v].dts <= audio[a].pts) {
                try writer.append(video[v]); v += 1
            } else {
                try writer.append(audio[a]); a += 1
            }
        }
        try writer.finish()
        #expect(writer.videoFrameCount == video.count && writer.audioFrameCount == audio.count)
        return (video, audio)
    }

    /// The `key=value` lines of ffprobe's `-show_entries` output, one dictionary per section.
    static func sections(_ text: String, _ name: String) -> [[String: String]] {
        var result: [[String: String]] = []
        var current: [String: String]?
        for line in text.split(separator: "\n") {
            if line == "[\(name)]" { current = [:] } else if line == "[/\(name)]" {
                if let current { result.append(current) }
                current = nil
            } else if let equals = line.firstIndex(of: "="), current != nil {
                current?[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        return result
    }

    /// The MD5 column of ffmpeg's `-f framemd5` output (one line per packet or frame).
    static func hashes(_ text: String) -> [String] {
        FrameMD5.hashes(text)
    }

    @Test("ffprobe reads our H.264 + AAC FLV: codecs, packets, timestamps, payloads, onMetaData",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func ffprobeReadsWhatWeWrite() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = try Self.makeH264MP4(in: directory)
        let flv = directory.appendingPathComponent("ours.flv").path
        let (video, audio) = try Self.writeFLV(from: mp4, to: flv)

        let streams = Self.sections(try await ExternalTool.check("ffprobe", ["-v", "error", "-show_streams", flv]).text, "STREAM")
        #expect(streams.map { $0["codec_name"] ?? "" }.sorted() == ["aac", "h264"])
        let videoStream = try #require(streams.first { $0["codec_name"] == "h264" })
        #expect(videoStream["width"] == "160" && videoStream["height"] == "120")
        #expect(streams.first { $0["codec_name"] == "aac" }?["sample_rate"] == "48000")

        let packets = await Self.sections(try ExternalTool.check("ffprobe", ["-v", "error", "-show_packets", flv]).text, "PACKET")
        let videoPackets = packets.filter { $0["codec_type"] == "video" }
        let audioPackets = packets.filter { $0["codec_type"] == "audio" }
        #expect(videoPackets.count == video.count)
        #expect(audioPackets.count == audio.count)
        // FLV keeps milliseconds: each packet's dts and pts are the MP4's, rounded, all moved by the first
        // picture's negative decode time (the B-frame delay, as FFmpeg's muxer moves them).
        let delay = max(0, -FLVTimestamp.milliseconds(try #require(video.first).dts))
        #expect(delay > 0, "x264 with B-frames starts at a negative decode time")
        for (packet, frame) in zip(videoPackets, video) {
            #expect(packet["dts"] == "\(FLVTimestamp.milliseconds(frame.dts) + delay)")
            #expect(packet["pts"] == "\(FLVTimestamp.milliseconds(frame.pts) + delay)")
            #expect(packet["flags"]?.hasPrefix("K") == frame.isKeyFrame)
        }
        for (packet, frame) in zip(audioPackets, audio) { #expect(packet["pts"] == "\(FLVTimestamp.milliseconds(frame.pts) + delay)") }

        // The payloads ffmpeg demuxes from our FLV are the MP4's samples, byte for byte.
        let ours = await Self.hashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", flv, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"]).text)
        let theirs = await Self.hashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", mp4, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"]).text)
        #expect(ours.count == video.count && ours == theirs)
        // And the pictures decode to the same frames.
        let decodedOurs = await Self.hashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", flv, "-map", "0:v", "-f", "framemd5", "-"]).text)
        let decodedTheirs = await Self.hashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", mp4, "-map", "0:v", "-f", "framemd5", "-"]).text)
        #expect(!decodedOurs.isEmpty && decodedOurs == decodedTheirs)

        // onMetaData: ffmpeg takes the duration and the encoder from it; our reader reads the fixed-up fields.
        let format = try await #require(Self.sections(try ExternalTool.check("ffprobe", ["-v", "error", "-show_format", flv]).text, "FORMAT").first)
        let lastAudio = try #require(audio.last)
        let expectedDuration = Double(FLVTimestamp.milliseconds(lastAudio.pts) + delay + FLVTimestamp.milliseconds(lastAudio.duration)) / 1000
        #expect(abs((Double(format["duration"] ?? "") ?? 0) - expectedDuration) < 0.2)
        #expect(format["TAG:encoder"] == "StreamKit")
        let metadata = try #require(try Self.tags(of: flv).first.map { try $0.scriptData() }?.metadata)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: flv)[.size] as? Int)
        #expect(metadata["filesize"]?.number == Double(size))
        #expect(metadata["width"]?.number == 160 && metadata["height"]?.number == 120 && metadata["framerate"]?.number == 25)
        #expect(metadata["videocodecid"]?.number == 7 && metadata["audiocodecid"]?.number == 10)
        #expect(abs((metadata["duration"]?.number ?? 0) - expectedDuration) < 0.001)
    }

    @Test("we read ffmpeg's H.264 + AAC FLV: the same Annex B and ADTS as ffmpeg's -c copy -f h264 / -f adts",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func readsWhatFFmpegWrites() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = try Self.makeH264MP4(in: directory)
        let flv = directory.appendingPathComponent("ffmpeg.flv").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", mp4, "-c", "copy", flv])
        let h264 = directory.appendingPathComponent("ref.h264").path
        let adts = directory.appendingPathComponent("ref.aac").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", flv, "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", h264])
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", flv, "-map", "0:a", "-c", "copy", "-f", "adts", adts])

        let video = try Self.elementaryStream(of: flv, .video)
        let audio = try Self.elementaryStream(of: flv, .audio)
        let referenceVideo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: h264)))
        let referenceAudio = [UInt8](try Data(contentsOf: URL(fileURLWithPath: adts)))
        #expect(!video.isEmpty && video == referenceVideo)
        #expect(!audio.isEmpty && audio == referenceAudio)

        // ffmpeg's onMetaData decodes with our AMF0 decoder.
        let tags = try Self.tags(of: flv)
        let metadata = try #require(try tags.first { $0.type == .scriptData }?.scriptData().metadata)
        #expect(metadata["width"]?.number == 160 && metadata["height"]?.number == 120)
        #expect(metadata["videocodecid"]?.number == 7 && metadata["audiocodecid"]?.number == 10)
        let pictureCount = try Self.frames(of: mp4).video.count
        #expect(tags.filter { $0.type == .video }.count == pictureCount + 2)  // + sequence header and end
    }

    @Test("the modern FFmpeg reads our H.265 Enhanced RTMP FLV: packets, timestamps, payloads, decoded pictures",
          .enabled(if: ModernFFmpeg.isRunnable))
    func modernFFmpegReadsOurHEVC() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = try Self.makeHEVCMP4(in: directory)
        let flv = directory.appendingPathComponent("ours-hevc.flv").path
        let (video, _) = try Self.writeFLV(from: mp4, to: flv)
        let first = try #require(try Self.tags(of: flv).first { $0.type == .video }?.videoBody())
        #expect(first.codec == .enhanced(.hvc1) && first.packetType == .sequenceStart)

        // framecrc of a stream copy lists each packet's dts, pts and a checksum of its bytes.
        let copied = try await ModernFFmpeg.check(["-v", "error", "-i", flv, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"]).text
        let lines = copied.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == video.count)
        for (line, frame) in zip(lines, video) {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(fields.count >= 6 && fields[1] == "\(FLVTimestamp.milliseconds(frame.dts))" && fields[2] == "\(FLVTimestamp.milliseconds(frame.pts))")
        }
        let theirs = await Self.hashes(try ModernFFmpeg.check(["-v", "error", "-i", mp4, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"]).text)
        #expect(Self.hashes(copied) == theirs)
        let decodedOurs = await Self.hashes(try ModernFFmpeg.check(["-v", "error", "-i", flv, "-map", "0:v", "-f", "framemd5", "-"]).text)
        let decodedTheirs = await Self.hashes(try ModernFFmpeg.check(["-v", "error", "-i", mp4, "-map", "0:v", "-f", "framemd5", "-"]).text)
        #expect(decodedOurs.count == video.count && decodedOurs == decodedTheirs)
    }

    @Test("we read the modern FFmpeg's H.265 Enhanced RTMP FLV: the same Annex B as its -bsf:v hevc_mp4toannexb -f hevc",
          .enabled(if: ModernFFmpeg.isRunnable))
    func readsModernFFmpegsHEVC() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mp4 = try Self.makeHEVCMP4(in: directory)
        let flv = directory.appendingPathComponent("ffmpeg-hevc.flv").path
        try await ModernFFmpeg.check(["-v", "error", "-y", "-i", mp4, "-c", "copy", flv])
        let reference = directory.appendingPathComponent("ref.h265").path
        try await ModernFFmpeg.check(["-v", "error", "-y", "-i", flv, "-c", "copy", "-bsf:v", "hevc_mp4toannexb", "-f", "hevc", reference])
        let ours = try Self.elementaryStream(of: flv, .video)
        let referenceBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference)))
        #expect(!ours.isEmpty && ours == referenceBytes)
        let bodies = try Self.tags(of: flv).filter { $0.type == .video }.map { try $0.videoBody() }
        #expect(bodies.first?.codec == .enhanced(.hvc1))
        #expect(bodies.contains { $0.packetType == .codedFramesX } && bodies.contains { $0.packetType == .codedFrames })
    }
}

import Foundation
import StreamKit
import Testing
import TestSupport

// The programs a user writes with MPEG-TS: record an encoder into a `.ts`, read a `.ts` frame by frame, and an HLS
// presentation with TS segments.

/// Records the synthetic camera and microphone, encoded, into an MPEG-TS file.
func recordTS(to path: String, frames: Int) async throws -> LiveReport {
    var video = CompressionConfiguration(codec: .h264, width: 160, height: 120, profileLevel: ProfileLevel(profile: .constrainedBaseline))
    video.maxKeyFrameInterval = 25
    video.allowFrameReordering = false
    var configuration = LiveConfiguration(video: video)
    configuration.frameLimit = frames
    configuration.durationLimit = Double(frames) / 25
    configuration.delivery = .waitForSlowest
    let pipeline = LivePipeline(video: try SyntheticCamera(width: 160, height: 120, frameRate: 25, realTime: false),
                                audio: try SyntheticMicrophone(realTime: false), configuration: configuration)
    pipeline.add(TSFileDestination(path: path), options: .recording())
    return try await pipeline.run()
}

/// Reads an MPEG-TS file frame by frame: the pictures, the audio frames and what went wrong.
func readTS(_ path: String) throws -> (pictures: [EncodedFrame], audio: [EncodedAudioFrame], issues: [TSStreamIssue]) {
    let file = try FileByteSource(path: path)
    defer { try? file.close() }
    var reader = TSMediaReader()
    var pictures: [EncodedFrame] = [], audio: [EncodedAudioFrame] = [], issues: [TSStreamIssue] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
        for event in count == 0 ? reader.finish() : reader.append(chunk[..<count]) {
            switch event {
            case let .video(frame, _): pictures.append(frame)
            case let .audio(frame, _): audio.append(frame)
            case let .issue(issue): issues.append(issue)
            case .programMap: break
            }
        }
        if count == 0 { return (pictures, audio, issues) }
    }
}

@Suite("MPEG-TS from the library: record, read, HLS with TS segments")
struct TSLibraryExampleTests {
    @Test("An encoder recorded into a .ts reads back frame for frame, and ffmpeg decodes it without a message",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func recordAndRead() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("recording.ts").path
        let report = try await recordTS(to: path, frames: 30)
        #expect(report.destinations.first?.failure == nil)
        let read = try readTS(path)
        #expect(read.issues.isEmpty)
        #expect(read.pictures.count == 30 && read.pictures.first?.isKeyFrame == true)
        #expect(read.audio.count == report.audioFramesEncoded)
        let packets = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type", "-of", "csv=p=0", path]).text
        #expect(packets.split(separator: "\n").filter { $0.hasPrefix("video") }.count == 30)
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "ffmpeg: \(decode.standardError)")
    }

    @Test("HLS with TS segments: version 3 without EXT-X-MAP; each segment starts with PAT, PMT and a key frame; ffmpeg reads all",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func hlsWithTSSegments() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let playlist = directory.appendingPathComponent("stream.m3u8").path
        var video = CompressionConfiguration(codec: .h264, width: 160, height: 120, profileLevel: ProfileLevel(profile: .constrainedBaseline))
        video.maxKeyFrameInterval = 25
    video.allowFrameReordering = false
        var configuration = LiveConfiguration(video: video)
        configuration.frameLimit = 50
        configuration.durationLimit = 2  // the microphone, as fast as possible, stops with the 50 pictures
        configuration.delivery = .waitForSlowest
        let pipeline = LivePipeline(video: try SyntheticCamera(width: 160, height: 120, frameRate: 25, realTime: false),
                                    audio: try SyntheticMicrophone(realTime: false), configuration: configuration)
        pipeline.add(HLSDestination(path: playlist, segmentDuration: 1, mode: .vod, segmentFormat: .mpegTS), options: .recording())
        let report = try await pipeline.run()
        #expect(report.destinations.first?.failure == nil)

        let text = try String(contentsOfFile: playlist, encoding: .utf8)
        #expect(text.contains("#EXT-X-VERSION:3") && !text.contains("EXT-X-MAP") && text.contains("#EXT-X-ENDLIST"))
        let segments = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(segments.count == 2 && segments.allSatisfy { $0.hasSuffix(".ts") })
        var pictures = 0
        for segment in segments {
            let path = directory.appendingPathComponent(segment).path
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // PAT (PID 0), then the PMT (PID 0x1000), then the first picture.
            #expect(bytes.count > 376 && bytes[1] & 0x1F == 0 && bytes[2] == 0 && bytes[188 + 1] & 0x1F == 0x10 && bytes[188 + 2] == 0)
            let read = try readTS(path)
            #expect(read.pictures.first?.isKeyFrame == true, "\(segment) starts with a key frame")
            pictures += read.pictures.count
            let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(segment): \(decode.standardError)")
        }
        #expect(pictures == 50)
        let probed = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type", "-of", "csv=p=0", playlist]).text
        #expect(probed.split(separator: "\n").filter { $0.hasPrefix("video") }.count == 50)
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", playlist, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "ffmpeg: \(decode.standardError)")
    }
}

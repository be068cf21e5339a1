import Bitstream
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The reader against ffmpeg: every sample of every track of MP4s ffmpeg wrote has the size, file position,
/// times and key flag ffprobe reports, and the bytes ffmpeg's `-c copy -f h264/hevc/adts` extracts.
@Suite("MP4 reader against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct MP4ReaderOracleTests {
    @Test("samples, positions, pts/dts/duration and key flags equal ffprobe's packets", arguments: MP4TestFiles.variants)
    func packetsEqualFFprobe(_ variant: MP4TestFiles.Variant) throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = try MP4TestFiles.make(variant, in: directory)
        let file = try MP4File(contentsOf: path)
        #expect(!file.tracks.isEmpty)
        #expect(file.isFragmented == (variant.name == "fragmented"))
        for track in file.tracks {
            let expected = try MP4TestFiles.packets(path, stream: track.index)
            let samples = file.samples(of: track)
            #expect(samples.count == expected.count, "\(variant) track \(track.index)")
            #expect(samples.count > 10)
            // ffmpeg 5.1's mov demuxer does not pass on the durations of a fragment's `trun`: libavformat
            // fills an audio packet's duration from the AAC frame size (1024) instead, so for fragmented audio the
            // durations are checked against FFmpeg 9 below.
            let ignoresDuration = file.isFragmented && track.kind == .audio
            for (sample, var packet) in zip(samples, expected) {
                if ignoresDuration { packet.duration = sample.duration }
                let ours = MP4TestFiles.Packet(pts: sample.presentationTime, dts: sample.decodeTime, duration: sample.duration,
                                               size: sample.data.count, position: sample.offset, isKey: sample.isKeyFrame)
                #expect(ours == packet, "\(variant) track \(track.index) sample \(sample.index)")
                if ours != packet { break }
            }
        }
    }

    @Test("fragmented: every sample's dts, pts, duration and size equal FFmpeg 9's framecrc",
          .enabled(if: ModernFFmpeg.isRunnable))
    func fragmentedDurationsEqualModernFFmpeg() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let variant = try #require(MP4TestFiles.variants.first { $0.name == "fragmented" })
        let path = try MP4TestFiles.make(variant, in: directory)
        let file = try MP4File(contentsOf: path)
        for track in file.tracks {
            let output = try await ModernFFmpeg.check(["-v", "error", "-i", path, "-map", "0:\(track.index)", "-c", "copy",
                                                 "-f", "framecrc", "-"])
            let rows = output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            let samples = file.samples(of: track)
            #expect(rows.count == samples.count)
            for (sample, row) in zip(samples, rows) where row.count >= 5 {
                #expect([row[1], row[2], row[3], row[4]] == ["\(sample.decodeTime)", "\(sample.presentationTime)",
                                                             "\(sample.duration)", "\(sample.data.count)"],
                        "track \(track.index) sample \(sample.index)")
            }
        }
    }

    @Test("each track's bytes equal ffmpeg's -c copy elementary stream", arguments: MP4TestFiles.variants)
    func elementaryStreamsEqualFFmpeg(_ variant: MP4TestFiles.Variant) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = try MP4TestFiles.make(variant, in: directory)
        let file = try MP4File(contentsOf: path)
        for track in file.tracks {
            let format = switch track.codec { case .h264: "h264"; case .hevc: "hevc"; default: "adts" }
            let reference = directory.appendingPathComponent("track\(track.index).\(format)").path
            try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", path, "-map", "0:\(track.index)", "-c", "copy",
                                              "-f", format, reference])
            let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: reference)))
            var sink = MemoryByteSink()
            let count = try file.writeElementaryStream(of: track, to: &sink)
            #expect(count == track.sampleCount)
            if format == "adts" {
                #expect(sink.bytes == expected, "\(variant) track \(track.index): \(sink.bytes.count) vs \(expected.count) bytes")
            } else {
                let ours = MP4TestFiles.nalUnits(ofAnnexB: sink.bytes)
                let theirs = MP4TestFiles.nalUnits(ofAnnexB: expected)
                #expect(ours.count == theirs.count, "\(variant) track \(track.index)")
                #expect(ours == theirs, "\(variant) track \(track.index)")
            }
        }
    }

    @Test("track formats: codec, size, profile, sample rate and channels equal ffprobe's streams", arguments: MP4TestFiles.variants)
    func formatsEqualFFprobe(_ variant: MP4TestFiles.Variant) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = try MP4TestFiles.make(variant, in: directory)
        let file = try MP4File(contentsOf: path)
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_streams", "-of", "json", path])
        let streams = (try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any])?["streams"] as? [[String: Any]] ?? []
        #expect(streams.count == file.tracks.count)
        for (track, stream) in zip(file.tracks, streams) {
            #expect(track.sampleEntryType == stream["codec_tag_string"] as? String)
            switch track.format {
            case let .video(format):
                #expect(format.codec == (stream["codec_name"] as? String == "hevc" ? .hevc : .h264))
                #expect(format.width == stream["width"] as? Int)
                #expect(format.height == stream["height"] as? Int)
                #expect(format.profileLevel.profileName == stream["profile"] as? String)
                #expect(track.kind == .video)
            case let .audio(format):
                #expect(stream["codec_name"] as? String == "aac")
                #expect(format.sampleRate == (stream["sample_rate"] as? String).flatMap { Int($0) })
                #expect(format.channelCount == stream["channels"] as? Int)
                #expect(format.profile == stream["profile"] as? String)
                #expect(track.kind == .audio)
            case .unsupported:
                Issue.record("\(variant): track \(track.index) unsupported")
            }
        }
    }
}

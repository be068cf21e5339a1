import Containers
import Foundation
import H264
import MediaCore
import Testing
import TestSupport

/// Our playlists over fMP4 segments FFmpeg cut (`-f hls -hls_segment_type fmp4`): FFmpeg's HLS demuxer
/// reads every segment in order, and Chromium plays them through Media Source Extensions.
@Suite(.serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct HLSPlaylistPlaybackTests {
    /// FFmpeg's segments of 150 frames (25 fps, a key frame every 25, no B-frames: segments of 1 s) and
    /// the durations its own playlist gives them.
    struct Fixture {
        var folder: URL
        var segments: [HLSMediaSegment]
        var format: FormatDescription
        var frameCount = 150
    }

    static func makeFixture() throws -> Fixture {
        let folder = try ExternalTool.temporaryDirectory()
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "150",
                                          "-c:v", "libx264", "-profile:v", "main", "-bf", "0", "-g", "25", "-pix_fmt", "yuv420p",
                                          "-f", "hls", "-hls_segment_type", "fmp4", "-hls_time", "1", "-hls_playlist_type", "vod",
                                          "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", folder.appendingPathComponent("ff_%d.m4s").path,
                                          folder.appendingPathComponent("ffmpeg.m3u8").path])
        let theirs = try String(contentsOf: folder.appendingPathComponent("ffmpeg.m3u8"), encoding: .utf8).split(separator: "\n")
        var segments: [HLSMediaSegment] = []
        for (index, line) in theirs.enumerated() where line.hasPrefix("#EXTINF:") {
            let seconds = Double(line.dropFirst(8).split(separator: ",")[0]) ?? 0
            let uri = String(theirs[index + 1])
            let size = (try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(uri).path)[.size] as? Int) ?? 0
            segments.append(HLSMediaSegment(uri: uri, duration: MediaTime(value: Int64((seconds * 90_000).rounded()), timescale: 90_000), byteCount: size))
        }
        let initSegment = [UInt8](try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
        guard segments.count == 6, let avcC = MP4Boxes.payloads(of: "avcC", in: initSegment).first else {
            throw TestFailure("FFmpeg made \(segments.count) segments")
        }
        let record = try AVCDecoderConfigurationRecord(bytes: avcC)
        let format = FormatDescription(codec: .h264, width: 320, height: 240, profileLevel: .h264Main,
                                       parameterSets: record.sequenceParameterSets + record.pictureParameterSets)
        return Fixture(folder: folder, segments: segments, format: format)
    }

    /// The MD5 of every video packet FFmpeg demuxes from a playlist, in order.
    static func packetHashes(_ playlist: URL) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", playlist.path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { String($0.trimmingCharacters(in: .whitespaces)) } }
    }

    private func write(_ playlist: HLSMediaPlaylist, to folder: URL, name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try AtomicFile.replace(url.path, withText: try playlist.text())
        return url
    }

    @Test("ffmpeg -i our VOD playlist reads all 150 frames, packet for packet as from FFmpeg's own playlist")
    func ffmpegReadsVOD() throws {
        let fixture = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let playlist = HLSMediaPlaylist(initializationSegmentURI: "init.mp4", playlistType: .vod, segments: fixture.segments, hasEnded: true)
        let ours = try Self.packetHashes(try write(playlist, to: fixture.folder, name: "stream.m3u8"))
        let theirs = try Self.packetHashes(fixture.folder.appendingPathComponent("ffmpeg.m3u8"))
        #expect(ours.count == fixture.frameCount)
        #expect(ours == theirs)
        #expect(playlist.targetDuration == 1)
    }

    @Test("A sliding window of 3 (media sequence 3): ffmpeg reads exactly the last 75 frames")
    func ffmpegReadsWindow() throws {
        let fixture = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        var playlist = HLSMediaPlaylist(initializationSegmentURI: "init.mp4")
        for segment in fixture.segments {
            playlist.append(segment)
            playlist.removeSegments(keepingLast: 3)
        }
        playlist.hasEnded = true
        #expect(playlist.mediaSequence == 3)
        let ours = try Self.packetHashes(try write(playlist, to: fixture.folder, name: "live.m3u8"))
        let all = try Self.packetHashes(fixture.folder.appendingPathComponent("ffmpeg.m3u8"))
        #expect(ours == Array(all.suffix(75)))
    }

    @Test("Chromium plays our playlists through MSE: 150 decoded frames, 6 s, from 0; the picture is not black",
          .enabled(if: BrowserPlayback.isRunnable))
    func chromiumPlaysSegments() throws {
        let fixture = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let media = HLSMediaPlaylist(initializationSegmentURI: "init.mp4", playlistType: .vod, segments: fixture.segments, hasEnded: true)
        _ = try write(media, to: fixture.folder, name: "stream.m3u8")
        let rates = HLSVariantStream.bitRates(of: media.segments)
        let multivariant = HLSMultivariantPlaylist(variants: [
            HLSVariantStream(uri: "stream.m3u8", bandwidth: rates.peak, averageBandwidth: rates.average,
                             codecs: [try CodecString.video(fixture.format)], resolution: (320, 240), frameRate: 25),
        ])
        try AtomicFile.replace(fixture.folder.appendingPathComponent("master.m3u8").path, withText: try multivariant.text())

        let result = try BrowserPlayback.play(.hls(playlist: "master.m3u8", codecs: nil), in: fixture.folder, screenshotSize: (320, 240))
        let report = result.report
        #expect(report.done, "\(report)")
        #expect(report.errors.isEmpty, "\(report)")
        #expect(report.codecs == "avc1.4D400D")
        #expect(report.segments == 6)
        #expect(report.totalVideoFrames == fixture.frameCount, "\(report)")
        // Every frame decoded (above). Frames the compositor drops as late depend on the machine's load (51 of 150
        // with 8 builds on 2 cores), not on the stream: most must still be shown.
        #expect((report.droppedVideoFrames ?? .max) < fixture.frameCount / 2, "\(report)")
        #expect(abs((report.duration ?? 0) - media.duration.seconds) < 0.001, "\(report)")
        #expect(report.buffered?.first?.first ?? -1 == 0, "\(report)")
        #expect(report.width == 320 && report.height == 240)
        let picture = try BrowserPlayback.grayStatistics(of: try #require(result.screenshot))
        #expect(picture.count == 320 * 240)
        #expect(picture.mean > 40 && picture.variance > 500, "the screenshot looks blank: mean \(picture.mean), variance \(picture.variance)")
    }

    @Test("Chromium plays an FFmpeg MP4 in <video>: 100 decoded frames, 4 s", .enabled(if: BrowserPlayback.isRunnable))
    func chromiumPlaysMP4() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "100",
                                          "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", folder.appendingPathComponent("x.mp4").path])
        let report = try BrowserPlayback.play(.mp4("x.mp4"), in: folder).report
        #expect(report.done && report.errors.isEmpty, "\(report)")
        #expect(report.totalVideoFrames == 100, "\(report)")
        #expect(abs((report.duration ?? 0) - 4) < 0.001, "\(report)")
    }
}

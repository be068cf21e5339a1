import StreamKit
import Testing

/// What a typed destination becomes (`streamkit publish INPUT DEST…`): each scheme and extension its destination,
/// and a word that is not understood named in the error.
struct LiveDestinationsTests {
    @Test(arguments: [
        ("rtmp://127.0.0.1/live/key", "RTMPDestination"),
        ("RTMPS://example.com:443/app/key", "RTMPDestination"),
        ("rtsp://127.0.0.1:8554/live", "RTSPPublishDestination"),
        ("rtp://127.0.0.1:5004", "RTPDestination"),
        ("rtp://[::1]:5004", "RTPDestination"),
        ("out/recording.mp4", "MP4FileDestination"),
        ("x.MOV", "MP4FileDestination"),
        ("www/live/stream.m3u8", "HLSDestination"),
        ("x.flv", "FLVFileDestination"),
        ("x.h264", "ElementaryStreamFileDestination<AnnexBWriter<FileByteSink>>"),
        ("x.h265", "ElementaryStreamFileDestination<AnnexBWriter<FileByteSink>>"),
        ("x.aac", "ElementaryStreamFileDestination<ADTSWriter<FileByteSink>>"),
    ])
    func eachWordMakesItsDestination(text: String, type: String) throws {
        let destination = try LiveDestinations.destination(for: text)
        #expect(String(describing: Swift.type(of: destination)) == type)
    }

    @Test func theDestinationsKeepWhatWasTyped() throws {
        let rtp = try #require(try LiveDestinations.destination(for: "rtp://127.0.0.1:5004",
                                                                 options: LiveDestinations.Options(sdpPath: "/tmp/x.sdp")) as? RTPDestination)
        #expect(rtp.host == "127.0.0.1" && rtp.port == 5004 && rtp.sdpPath == "/tmp/x.sdp" && rtp.name == "rtp://127.0.0.1:5004")
        let hls = try #require(try LiveDestinations.destination(for: "www/live/stream.m3u8",
                                                                 options: LiveDestinations.Options(segmentDuration: 4)) as? HLSDestination)
        #expect(hls.configuration.directory == "www/live" && hls.configuration.playlistName == "stream.m3u8")
        #expect(hls.configuration.targetSegmentDuration == MediaTime(value: 4000, timescale: 1000) && hls.configuration.mode == .event)
        let rtsp = try #require(try LiveDestinations.destination(for: "rtsp://127.0.0.1:8554/live") as? RTSPPublishDestination)
        #expect(rtsp.options.transport == .tcp && rtsp.isLive)
        #expect(try LiveDestinations.destination(for: "x.flv").isLive == false)
    }

    @Test(arguments: [
        ("ftp://host/x", LiveDestinationError.unknownScheme("ftp", destination: "ftp://host/x")),
        ("srt://host:9000", .unknownScheme("srt", destination: "srt://host:9000")),
        ("x.mkv", .unknownFileExtension("mkv", destination: "x.mkv")),
        ("recording", .unknownFileExtension("", destination: "recording")),
        ("dir.d/recording", .unknownFileExtension("", destination: "dir.d/recording")),
        ("rtp://127.0.0.1", .invalidAddress(part: "127.0.0.1", destination: "rtp://127.0.0.1", reason: "has no port (rtp://HOST:PORT)")),
    ])
    func aWordNotUnderstoodIsNamed(text: String, expected: LiveDestinationError) {
        #expect(throws: expected) { _ = try LiveDestinations.destination(for: text) }
    }

    @Test func aBadHostOrPortIsNamed() {
        #expect {
            _ = try LiveDestinations.destination(for: "rtp://127.0.0.1:70000")
        } throws: { error in
            guard case let .invalidAddress(part, _, _) = error as? LiveDestinationError else { return false }
            return part == "70000" && "\(error)".contains("\"70000\"")
        }
        #expect {
            _ = try LiveDestinations.destination(for: "rtp://camera.local:5004")
        } throws: { error in
            guard case let .invalidAddress(part, _, _) = error as? LiveDestinationError else { return false }
            return part == "camera.local"
        }
        #expect {
            _ = try LiveDestinations.destination(for: "rtmp://")
        } throws: { error in
            if case .invalidAddress = error as? LiveDestinationError { return true }
            return false
        }
        #expect("\(LiveDestinationError.unknownScheme("ftp", destination: "ftp://x"))".contains("\"ftp://\""))
    }
}

import StreamKit
import Testing
import TestSupport

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
        ("srt://host", .invalidAddress(part: "srt://host", destination: "srt://host",
                                       reason: "SRT: cannot read the URL srt://host: no port (srt://HOST:PORT)")),
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

    /// 20,000 random words of URL characters never trap; each becomes a destination or an error whose word is part of
    /// what was typed.
    @Test func randomWordsNeverTrapAndErrorsNameAPartOfThem() {
        var random = SplitMix64(seed: 16)
        let alphabet = Array("rtmpsfl:/.[]0123456789hx4a5v8u-@?%")
        let prefixes = ["", "rtp://", "rtsp://", "rtmp://", "rtmps://", "x."]
        var (made, refused) = (0, 0)
        for _ in 0..<20_000 {
            let length = Int(random.next() % 24)
            let word = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            let text = prefixes[Int(random.next() % UInt64(prefixes.count))] + word
            do {
                _ = try LiveDestinations.destination(for: text)
                made += 1
            } catch {
                refused += 1
                let part: String = switch error {
                case let .unknownScheme(scheme, _): scheme
                case let .unknownFileExtension(fileExtension, _): fileExtension
                case let .invalidAddress(part, _, _): part
                case .missingTrack, .notOpen, .refused: "<not a parsing error>"
                }
                #expect(part.isEmpty || text.contains(part), "\(text): \(error)")
            }
        }
        #expect(made > 0 && refused > 0, "made \(made), refused \(refused)")
    }
}

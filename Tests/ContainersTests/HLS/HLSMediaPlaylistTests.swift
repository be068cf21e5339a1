import Containers
import MediaCore
import Testing

/// The media playlist's text against the rules of RFC 8216.
@Suite struct HLSMediaPlaylistTests {
    private func seconds(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }

    @Test("A VOD playlist of fMP4 segments: every tag in RFC 8216 order, version 6 for EXT-X-MAP, ENDLIST last")
    func vodText() throws {
        var playlist = HLSMediaPlaylist(initializationSegmentURI: "init.mp4", playlistType: .vod)
        let start = HLSProgramDateTime(millisecondsSinceEpoch: 1_764_584_754_320)
        playlist.append(HLSMediaSegment(uri: "segment_00001.m4s", duration: seconds(2), programDateTime: start))
        playlist.append(HLSMediaSegment(uri: "segment_00002.m4s", duration: seconds(180_180, 90_000),
                                        programDateTime: start.advanced(by: seconds(2))))
        playlist.hasEnded = true
        #expect(try playlist.text() == """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:3
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2025-12-01T10:25:54.320Z
            #EXTINF:2.000000,
            segment_00001.m4s
            #EXT-X-PROGRAM-DATE-TIME:2025-12-01T10:25:56.320Z
            #EXTINF:2.002000,
            segment_00002.m4s
            #EXT-X-ENDLIST

            """)
    }

    @Test("The target duration is the ceiling of the longest segment, and never shrinks (§4.3.3.1, §6.2.1)")
    func targetDuration() throws {
        var playlist = HLSMediaPlaylist(targetDuration: 2)
        for duration in [seconds(2), seconds(2_001, 1000), seconds(1), seconds(4), seconds(3)] {
            playlist.append(HLSMediaSegment(uri: "s.m4s", duration: duration))
            let longest = playlist.segments.map { Int(($0.duration.seconds).rounded(.up)) }.max() ?? 0
            #expect(playlist.targetDuration == max(2, longest))
            try playlist.validate()
        }
        playlist.removeSegments(keepingLast: 1)
        #expect(playlist.targetDuration == 4)
    }

    @Test("A live sliding window removes the oldest segments in order and advances EXT-X-MEDIA-SEQUENCE (§6.2.2)")
    func slidingWindow() throws {
        var playlist = HLSMediaPlaylist(targetDuration: 2, initializationSegmentURI: "init.mp4")
        var removed: [String] = []
        for index in 1...7 {
            playlist.append(HLSMediaSegment(uri: "segment_\(index).m4s", duration: seconds(2)))
            removed += playlist.removeSegments(keepingLast: 3).map(\.uri)
        }
        #expect(playlist.mediaSequence == 4)
        #expect(playlist.segments.map(\.uri) == ["segment_5.m4s", "segment_6.m4s", "segment_7.m4s"])
        #expect(removed == ["segment_1.m4s", "segment_2.m4s", "segment_3.m4s", "segment_4.m4s"])
        let lines = try playlist.text().split(separator: "\n")
        #expect(lines.contains("#EXT-X-MEDIA-SEQUENCE:4"))
        #expect(!lines.contains { $0.hasPrefix("#EXT-X-PLAYLIST-TYPE") }, "a sliding window has no playlist type")
        #expect(!lines.contains("#EXT-X-ENDLIST"))
    }

    @Test("Rule violations are typed errors naming the tag and the segment")
    func violations() {
        var playlist = HLSMediaPlaylist(targetDuration: 2)
        playlist.append(HLSMediaSegment(uri: "ok.m4s", duration: seconds(2)))
        playlist.append(HLSMediaSegment(uri: "a\nb.m4s", duration: seconds(1)))
        #expect(throws: HLSError.invalidPlaylist(field: "URI of segment 1",
                                                 reason: "a URI line must be non-empty, not start with # and hold no line break")) {
            try playlist.text()
        }
        var short = HLSMediaPlaylist(targetDuration: 2, segments: [HLSMediaSegment(uri: "x.m4s", duration: seconds(3))])
        short.targetDuration = 2
        #expect(throws: HLSError.self) { try short.validate() }
        let zero = HLSMediaPlaylist(mediaSequence: 5, segments: [HLSMediaSegment(uri: "x.m4s", duration: seconds(0))])
        #expect(throws: HLSError.invalidPlaylist(field: "EXTINF of segment 5", reason: "duration 0/1 is not positive")) { try zero.validate() }
        let quote = HLSMediaPlaylist(initializationSegmentURI: "in\"it.mp4")
        #expect(throws: HLSError.self) { try quote.validate() }
    }

    @Test("An EXTINF rounds the exact rational duration to the microsecond")
    func durationText() {
        #expect(HLSMediaSegment(uri: "s", duration: seconds(1001, 30000)).durationText == "0.033367")
        #expect(HLSMediaSegment(uri: "s", duration: seconds(5_994, 3000)).durationText == "1.998000")
        #expect(HLSMediaSegment(uri: "s", duration: seconds(12, 1)).durationText == "12.000000")
    }
}

/// The multivariant playlist's text (RFC 8216 §4.3.4.2).
@Suite struct HLSMultivariantPlaylistTests {
    @Test("EXT-X-STREAM-INF with BANDWIDTH, AVERAGE-BANDWIDTH, CODECS, RESOLUTION, FRAME-RATE")
    func text() throws {
        let playlist = HLSMultivariantPlaylist(variants: [
            HLSVariantStream(uri: "1080p/stream.m3u8", bandwidth: 4_950_000, averageBandwidth: 4_500_000,
                             codecs: ["avc1.640028", "mp4a.40.2"], resolution: (1920, 1080), frameRate: 30000.0 / 1001),
            HLSVariantStream(uri: "360p/stream.m3u8", bandwidth: 880_000, codecs: ["avc1.42C01E"], resolution: (640, 360), frameRate: 25),
        ])
        #expect(try playlist.text() == """
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=4950000,AVERAGE-BANDWIDTH=4500000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=29.970
            1080p/stream.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=880000,CODECS="avc1.42C01E",RESOLUTION=640x360,FRAME-RATE=25.000
            360p/stream.m3u8

            """)
    }

    @Test("An average above the peak, a comma in a codec or no variant is refused")
    func violations() {
        #expect(throws: HLSError.self) { try HLSMultivariantPlaylist(variants: []).text() }
        #expect(throws: HLSError.invalidPlaylist(field: "AVERAGE-BANDWIDTH of EXT-X-STREAM-INF 1", reason: "2000 is not within 1…BANDWIDTH (1000)")) {
            try HLSMultivariantPlaylist(variants: [HLSVariantStream(uri: "a.m3u8", bandwidth: 1000, averageBandwidth: 2000, codecs: ["avc1.42C01E"])]).text()
        }
        #expect(throws: HLSError.self) {
            try HLSMultivariantPlaylist(variants: [HLSVariantStream(uri: "a.m3u8", bandwidth: 1000, codecs: ["avc1.42C01E,mp4a.40.2"])]).text()
        }
    }

    @Test("Peak and average segment bit rates")
    func bitRates() {
        let segments = [HLSMediaSegment(uri: "a", duration: MediaTime(value: 2, timescale: 1), byteCount: 250_000),
                        HLSMediaSegment(uri: "b", duration: MediaTime(value: 1, timescale: 1), byteCount: 250_000)]
        let rates = HLSVariantStream.bitRates(of: segments)
        #expect(rates.peak == 2_000_000)
        #expect(rates.average == 1_333_334)
    }
}

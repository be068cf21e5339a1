import Foundation
import StreamKit
import Testing
import TestSupport

/// The pieces of live HLS from memory without a network: the segments ``HLSSegmentStream`` cuts (decoded by ffmpeg,
/// whole and one by one, against the recording they came from), the sliding window (``HLSLiveWindow``) and the names
/// a server reads back (``HLSLiveResource``).
@Suite("Live HLS in memory: segments, window, names")
struct HLSLiveWindowTests {
    /// A recording's frames merged in decode order.
    static func frames(of path: String) throws -> [OutgoingMedia] {
        let read = try readTS(path)
        var merged: [OutgoingMedia] = []
        var audio = read.audio[...]
        for (index, picture) in read.pictures.enumerated() {
            while let next = audio.first, next.pts < picture.dts {
                merged.append(.audio(next, index: merged.count))
                audio = audio.dropFirst()
            }
            merged.append(.video(picture, index: index))
        }
        merged += audio.map { .audio($0, index: 0) }
        return merged
    }

    /// A recording made by ffmpeg (x264 at 160x120, 25 fps, a key frame every second, no B-frames, and AAC): MPEG-TS.
    static func source(in directory: URL, seconds: Int) async throws -> String {
        let path = directory.appendingPathComponent("source.ts").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi",
                                                "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(seconds)", "-c:v", "libx264",
                                                "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p",
                                                "-c:a", "aac", "-b:a", "64k", "-f", "mpegts", "-y", path])
        return path
    }

    /// Cuts a recording into segments; `isKeyFrame` (by picture index) overrides the pictures' own flags.
    static func segments(of path: String, format: HLSSegmentFormat, cap: Int = 32 << 20, isKeyFrame: ((Int) -> Bool)? = nil)
        throws -> (segments: [HLSSegmentStream.Segment], stream: HLSSegmentStream) {
        let read = try readTS(path)
        let video = try #require(read.pictures.first?.format), audio = try #require(read.audio.first?.format)
        var stream = try HLSSegmentStream(tracks: [.video(video), .audio(audio)],
                                          configuration: .init(targetSegmentDuration: MediaTime(value: 1, timescale: 1), segmentFormat: format,
                                                               maximumSegmentByteCount: cap))
        var segments: [HLSSegmentStream.Segment] = []
        for media in try frames(of: path) {
            switch media {
            case .video(var frame, let index):
                if let isKeyFrame { frame.isKeyFrame = isKeyFrame(index) }
                if let segment = try stream.append(frame, toTrack: 0) { segments.append(segment) }
            case let .audio(frame, _): if let segment = try stream.append(frame, toTrack: 1) { segments.append(segment) }
            }
        }
        if let last = try stream.finish() { segments.append(last) }
        return (segments, stream)
    }

    @Test("Segments cut in memory decode, joined and each alone, to the recording's pictures (ffmpeg, -err_detect explode)",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")), arguments: [HLSSegmentFormat.fragmentedMP4, .mpegTS])
    func segmentsDecode(format: HLSSegmentFormat) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.source(in: directory, seconds: 6)
        let (segments, stream) = try Self.segments(of: source, format: format)
        // 6 s with a key frame every second and a 1 s target: six segments, numbered 0 to 5.
        #expect(segments.map(\.sequenceNumber) == Array(0..<6), "\(segments.map(\.sequenceNumber))")
        #expect(segments.allSatisfy { $0.duration == MediaTime(value: 1, timescale: 1) }, "\(segments.map(\.duration))")
        #expect((stream.initializationSegment != nil) == (format == .fragmentedMP4))
        let prefix = stream.initializationSegment ?? []
        let joined = directory.appendingPathComponent("joined." + (format == .mpegTS ? "ts" : "mp4")).path
        try Data(prefix + segments.flatMap(\.bytes)).write(to: URL(fileURLWithPath: joined))
        let sent = try await Streamkit.frameHashes(decoding: source)
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", joined, "-f", "null", "-"])
        #expect(try await Streamkit.frameHashes(decoding: joined) == sent)
        var pictures = 0
        for segment in segments {
            let alone = directory.appendingPathComponent("alone-\(segment.sequenceNumber)." + (format == .mpegTS ? "ts" : "mp4")).path
            try Data(prefix + segment.bytes).write(to: URL(fileURLWithPath: alone))
            let hashes = try await Streamkit.frameHashes(decoding: alone)
            #expect(hashes.count == 25 && sent.count >= pictures + 25 && Array(sent[pictures..<(pictures + 25)]) == hashes,
                    "segment \(segment.sequenceNumber)")
            pictures += hashes.count
        }
    }

    @Test("A segment that outgrows the byte cap (no key frame for 3 s) is thrown away; the stream starts again at the next key frame",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")), arguments: [HLSSegmentFormat.fragmentedMP4, .mpegTS])
    func byteCapDiscards(format: HLSSegmentFormat) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.source(in: directory, seconds: 4)
        let whole = try Self.segments(of: source, format: format).segments
        let cap = 2 * whole[0].bytes.count
        // Key frames at pictures 0 and 75 only: the first segment would last 3 s, three times a 1 s segment's bytes.
        let (capped, stream) = try Self.segments(of: source, format: format, cap: cap) { $0 == 0 || $0 == 75 }
        #expect(stream.discardedSegmentCount == 1)
        #expect(capped.map(\.sequenceNumber) == [0], "\(capped.map(\.sequenceNumber))")
        #expect(capped.first?.startTime == whole[3].startTime, "the kept segment starts at the key frame after the discard")
        #expect(capped.allSatisfy { $0.bytes.count <= cap })
        #expect(stream.skippedFrameCount > 0)
    }

    @Test("The window lists the last N segments, the media sequence advances, and no more than 2N are held")
    func windowSlides() throws {
        var window = HLSLiveWindow(windowSize: 3, segmentFormat: .mpegTS, targetDuration: 2)
        #expect(window.body(of: .playlist) == nil)
        for number in 0..<20 {
            window.add(HLSSegmentStream.Segment(sequenceNumber: number, startTime: MediaTime(value: Int64(2 * number), timescale: 1),
                                                duration: MediaTime(value: 2, timescale: 1), bytes: [UInt8(number)]))
            #expect(window.heldSegmentCount <= 6)
            #expect(window.segments.map(\.sequenceNumber) == Array(max(0, number - 2)...number))
            #expect(window.mediaSequence == max(0, number - 2))
        }
        #expect(window.body(of: .segment(sequenceNumber: 19)) == [19])
        #expect(window.body(of: .segment(sequenceNumber: 16)) != nil, "a segment just out of the window is still served (RFC 8216 §6.2.2)")
        #expect(window.body(of: .segment(sequenceNumber: 10)) == nil)
        #expect(window.body(of: .initializationSegment) == nil)
        let text = String(decoding: try #require(window.body(of: .playlist)), as: UTF8.self)
        #expect(text.contains("#EXT-X-MEDIA-SEQUENCE:17\n") && text.contains("segment_17.ts\n") && !text.contains("segment_16"))
        #expect(!text.contains("EXT-X-ENDLIST") && !text.contains("EXT-X-MAP"))
        window.end()
        #expect(String(decoding: try #require(window.body(of: .playlist)), as: UTF8.self).hasSuffix("#EXT-X-ENDLIST\n"))
    }

    @Test("Names read back strictly", arguments: [
        ("index.m3u8", HLSLiveResource.playlist), ("init.mp4", .initializationSegment), ("segment_0.m4s", .segment(sequenceNumber: 0)),
        ("segment_123.m4s", .segment(sequenceNumber: 123)),
    ])
    func namesReadBack(name: String, resource: HLSLiveResource) {
        #expect(HLSLiveResource(name: name, segmentFormat: .fragmentedMP4) == resource)
        #expect(resource.name(segmentFormat: .fragmentedMP4) == name)
    }

    @Test("Other names are not resources", arguments: [
        "", "index.m3u", "INDEX.m3u8", "segment_.m4s", "segment_01.m4s", "segment_-1.m4s", "segment_+1.m4s", "segment_1.ts",
        "segment_1234567890123456789.m4s", "segment_1.m4s/", "../segment_1.m4s", "segment_1 .m4s", "segment_١.m4s",
    ])
    func namesRefused(name: String) {
        #expect(HLSLiveResource(name: name, segmentFormat: .fragmentedMP4) == nil)
    }

    @Test("MPEG-TS has no initialization section, and its segments end in .ts")
    func transportStreamNames() {
        #expect(HLSLiveResource(name: "init.mp4", segmentFormat: .mpegTS) == nil)
        #expect(HLSLiveResource(name: "segment_7.ts", segmentFormat: .mpegTS) == .segment(sequenceNumber: 7))
    }
}

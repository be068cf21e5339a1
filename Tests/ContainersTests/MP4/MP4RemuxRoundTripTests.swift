import Bitstream
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The round trip: ffmpeg's MP4 (libx264 with B-frames + AAC, classic and fragmented) → our reader →
/// ``MP4Remuxer`` → ffprobe and our reader again: the same samples (sizes and bytes), the same pts/dts per packet,
/// the same frame count, and ffmpeg decodes our file without a word.
@Suite("MP4 remux round trip against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct MP4RemuxRoundTripTests {
    static let inputs: [MP4TestFiles.Variant] = [
        MP4TestFiles.Variant(name: "bframes-aac", arguments: MP4TestFiles.video + MP4TestFiles.audio + MP4TestFiles.x264
                             + ["-bf", "3", "-c:a", "aac"]),
        MP4TestFiles.Variant(name: "bframes-aac-fragmented", arguments: MP4TestFiles.video + MP4TestFiles.audio + MP4TestFiles.x264
                             + ["-bf", "3", "-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov"]),
    ]

    @Test("ffmpeg's MP4 → MP4Remuxer: same samples, same pts/dts, ffmpeg decodes it cleanly", arguments: inputs)
    func roundTrip(_ variant: MP4TestFiles.Variant) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let inputPath = try MP4TestFiles.make(variant, in: directory)
        let outputPath = directory.appendingPathComponent("ours.mp4").path

        // The program a user writes.
        let input = try MP4File(contentsOf: inputPath)
        let summary = try MP4Remuxer.remux(input, to: outputPath)

        #expect(summary.copiedTracks == [0, 1])
        #expect(summary.skippedTracks.isEmpty)
        let output = try MP4File(contentsOf: outputPath)
        #expect(!output.isFragmented)
        #expect(output.tracks.count == input.tracks.count)
        #expect(summary.sampleCount == input.tracks.reduce(0) { $0 + $1.sampleCount })

        for track in input.tracks {
            let copy = output.tracks[track.index]
            #expect(copy.kind == track.kind)
            #expect(copy.format == track.format, "track \(track.index): the sample description survives")
            let originals = Array(input.samples(of: track))
            let copies = Array(output.samples(of: copy))
            #expect(copies.count == originals.count, "track \(track.index)")
            #expect(originals.count > 10)
            // Our reader on both files: the same bytes and times, sample by sample.
            var bFrames = 0
            for (original, copied) in zip(originals, copies) {
                #expect(Array(copied.data) == Array(original.data), "track \(track.index) sample \(original.index): bytes")
                #expect(copied.pts == original.pts && copied.dts == original.dts && copied.durationTime == original.durationTime,
                        "track \(track.index) sample \(original.index): \(copied.pts)/\(copied.dts) vs \(original.pts)/\(original.dts)")
                #expect(copied.isKeyFrame == original.isKeyFrame)
                if original.index > 0, original.presentationTime < originals[original.index - 1].presentationTime { bFrames += 1 }
            }
            if track.kind == .video { #expect(bFrames > 0, "the input has B-frames (pts out of decode order)") }

            // ffprobe on both files: the same packets, in ffprobe's own time base (each track's timescale).
            let expected = try MP4TestFiles.packets(inputPath, stream: track.index)
            let actual = try MP4TestFiles.packets(outputPath, stream: track.index)
            #expect(actual.count == expected.count, "track \(track.index): packet count")
            #expect(actual.count == originals.count)
            // ffmpeg 5.1 does not read a fragment's `trun` durations for audio (it uses the frame size), so the
            // fragmented input's audio durations are compared through our reader above, not here.
            let comparesDuration = !(input.isFragmented && track.kind == .audio)
            for (ours, theirs) in zip(actual, expected) {
                #expect(ours.pts == theirs.pts && ours.dts == theirs.dts && ours.size == theirs.size && ours.isKey == theirs.isKey
                        && (!comparesDuration || ours.duration == theirs.duration),
                        "track \(track.index): ours \(ours) vs ffmpeg's \(theirs)")
                if ours.pts != theirs.pts || ours.dts != theirs.dts { break }
            }
        }

        // Frame count as ffprobe decodes it, and a clean decode.
        let counts = try [inputPath, outputPath].map { path in
            try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                               "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
                .text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(counts[0] == "50")
        #expect(counts[1] == counts[0])
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", outputPath, "-f", "null", "-"])
        #expect(decode.status == 0)
        #expect(decode.standardError.isEmpty, "ffmpeg -v error printed: \(decode.standardError)")
    }

    @Test("a file with no track the writer knows is a typed error, not an empty file")
    func nothingToCopy() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let inputPath = directory.appendingPathComponent("mjpeg.mp4").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=5:duration=1",
                                          "-c:v", "mjpeg", inputPath])
        let input = try MP4File(contentsOf: inputPath)
        #expect(throws: ContainerWriteError.self) {
            _ = try MP4Remuxer.remux(input, to: directory.appendingPathComponent("out.mp4").path)
        }
    }
}

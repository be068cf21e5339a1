import Foundation
import Testing
import TestSupport

/// `streamkit remux` and `streamkit inspect` on MP4s ffmpeg wrote: the remuxed streams carry the NAL units
/// (and ADTS bytes) of `ffmpeg -c copy`, and inspect reports the tracks ffprobe reports.
@Suite("streamkit remux / inspect on MP4", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct MP4CommandTests {
    static func nalUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var start: Int?
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let begin = start {
                    var end = index
                    while end > begin, bytes[end - 1] == 0 { end -= 1 }
                    units.append(bytes[begin..<end])
                }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let begin = start { units.append(bytes[begin...]) }
        return units
    }

    @Test("remux of an ffmpeg MP4 (B-frames, AAC) into .h264 and .aac: ffmpeg -c copy's NAL units and bytes")
    func remuxEqualsFFmpegCopy() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = directory.appendingPathComponent("in.mp4").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
                                          "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-bf", "3", "-c:a", "aac", input])
        for (ext, format) in [("h264", "h264"), ("aac", "adts")] {
            let ours = directory.appendingPathComponent("ours.\(ext)").path
            let theirs = directory.appendingPathComponent("theirs.\(ext)").path
            let run = try await ExternalTool.runProduct("streamkit", ["remux", input, ours])
            #expect(run.status == 0, "\(run.standardError)")
            try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", input, "-c", "copy", "-f", format, theirs])
            let mine = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ours)))
            let reference = try [UInt8](Data(contentsOf: URL(fileURLWithPath: theirs)))
            if ext == "aac" {
                #expect(mine == reference)
            } else {
                #expect(Self.nalUnits(mine).count == Self.nalUnits(reference).count)
                #expect(Self.nalUnits(mine) == Self.nalUnits(reference))
            }
        }
        let bad = try await ExternalTool.runProduct("streamkit", ["remux", input, directory.appendingPathComponent("x.y4m").path])
        #expect(bad.status == 2)
    }

    @Test("remux in.mp4 out.mp4 --faststart: every track, ffprobe's packets (pts, dts, size, key) unchanged, moov first")
    func remuxIntoMP4KeepsPackets() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = directory.appendingPathComponent("in.mp4").path
        let output = directory.appendingPathComponent("out.m4v").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
                                          "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-bf", "3", "-c:a", "aac", input])
        let run = try await ExternalTool.runProduct("streamkit", ["remux", input, output, "--faststart"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("2 tracks"), "\(run.standardError)")
        func packets(_ path: String, _ stream: Int) throws -> [String] {
            try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "\(stream)", "-show_entries",
                                               "packet=pts,dts,duration,size,flags", "-of", "csv", path])
                .text.split(separator: "\n").map(String.init)
        }
        for stream in 0..<2 {
            let theirs = try packets(input, stream)
            #expect(theirs.count > 40)
            #expect(try packets(output, stream) == theirs, "stream \(stream)")
        }
        let boxes = try await ExternalTool.check("ffprobe", ["-v", "trace", "-i", output]).standardError
        let moov = try #require(boxes.range(of: "type:'moov'")), mdat = try #require(boxes.range(of: "type:'mdat'"))
        #expect(moov.lowerBound < mdat.lowerBound, "faststart: moov before mdat")
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
    }

    @Test("inspect x.mp4: both tracks with ffprobe's sample counts, then the stream analysis of each")
    func inspectListsTracks() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = directory.appendingPathComponent("in.mov").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
                                          "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-g", "10", "-c:a", "aac", input])
        let run = try await ExternalTool.runProduct("streamkit", ["inspect", input])
        #expect(run.status == 0, "\(run.standardError)")
        let counts = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                                        "-of", "csv=p=0", input]).text.split(separator: "\n").map(String.init)
        #expect(counts.count == 2)
        #expect(run.text.contains("video H.264/AVC (avc1), 320x240"))
        #expect(run.text.contains("\(counts[0]) samples, 5 key frames"))
        #expect(run.text.contains("audio AAC (mp4a), 44100 Hz, 1 channels, LC"))
        #expect(run.text.contains("\(counts[1]) samples"))
        #expect(run.text.contains("frames       50 (I 5"))
        let broken = directory.appendingPathComponent("broken.mp4").path
        try Data([0, 0, 0, 5, 0x66, 0x74, 0x79, 0x70]).write(to: URL(fileURLWithPath: broken))
        let failed = try await ExternalTool.runProduct("streamkit", ["inspect", broken])
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("ftyp at byte 0: size 5 is below the 8-byte header"))
    }
}

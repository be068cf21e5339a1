import Containers
import Foundation
import Testing
import TestSupport

/// H.264 streams whose random-access points are not IDR pictures: x264's open GOPs (I pictures with a
/// recovery point SEI, B pictures before them in decode order referring across) and intra refresh
/// (P pictures with a recovery point SEI). Key frames, per frame in decode order, and the GOP lengths
/// must be ffprobe's: its packet flags (`K`, what the h264 parser sets for an IDR or a recovery point
/// SEI), and for open GOPs the decoder's `key_frame` too.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe", "x264")))
struct OpenGOPOracleTests {
    static let recipes: [(name: String, tool: String, arguments: [String])] = [
        ("x264-open-gop", "x264", ["--open-gop", "--keyint", "30", "--bframes", "3"]),
        ("x264-open-gop-short", "x264", ["--open-gop", "--keyint", "8", "--bframes", "3", "--b-pyramid", "normal"]),
        ("ffmpeg-open-gop", "ffmpeg", ["-c:v", "libx264", "-x264-params", "open-gop=1:keyint=30:bframes=3"]),
        ("x264-intra-refresh", "x264", ["--intra-refresh", "--keyint", "30", "--bframes", "0"]),
    ]

    /// ffprobe's key flag of every packet, in decode order, and the number of decoded key frames.
    private func probeKeys(_ path: String) throws -> (packets: [Bool], decodedKeyFrames: Int) {
        let packets = try ExternalTool.check("ffprobe", ["-v", "error", "-f", "h264", "-show_packets", "-show_entries", "packet=flags",
                                                        "-of", "csv=p=0", path])
        let frames = try ExternalTool.check("ffprobe", ["-v", "error", "-f", "h264", "-show_frames", "-show_entries", "frame=key_frame",
                                                       "-of", "csv=p=0", path])
        let keys = packets.text.split(separator: "\n").map { $0.hasPrefix("K") }
        // A line may go on with side data ("1,H.26[45] User Data Unregistered SEI message").
        let decoded = frames.text.split(separator: "\n").filter { $0.split(separator: ",").first == "1" }.count
        return (keys, decoded)
    }

    /// GOP lengths the way inspect defines them: from each key frame to the next, the last to the end.
    private func gopLengths(_ keys: [Bool]) -> [Int] {
        let starts = keys.indices.filter { keys[$0] }
        return zip(starts, starts.dropFirst() + [keys.count]).map { $1 - $0 }
    }

    @Test(arguments: recipes.map(\.name))
    func keyFramesAndGOPsMatchFFprobe(name: String) async throws {
        guard let recipe = Self.recipes.first(where: { $0.name == name }) else { return }
        let directory = try ExternalTool.temporaryDirectory()
        let source = directory.appendingPathComponent("source.y4m").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "90",
                                          "-pix_fmt", "yuv420p", source])
        let output = directory.appendingPathComponent("\(name).264").path
        if recipe.tool == "x264" {
            try await ExternalTool.check("x264", ["--quiet", "--no-progress"] + recipe.arguments + ["-o", output, source])
        } else {
            try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", source] + recipe.arguments + ["-f", "h264", output])
        }
        let report = VideoStreamAnalyzer.analyze([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), format: .h264AnnexB)
        #expect(report.issues.isEmpty, "\(report.issues.prefix(3))")
        let probe = try probeKeys(output)
        let ours = report.frames.map(\.isKey)
        #expect(ours == probe.packets, "key frames in decode order differ from ffprobe's packet flags")
        #expect(probe.packets.filter { $0 }.count > 1, "the stream should have several random-access points")
        #expect(report.gopLengths == gopLengths(probe.packets))
        #expect(report.gopLengths.count > 1)
        if !name.contains("intra-refresh") {
            // Open-GOP key frames are I pictures the decoder also calls key frames. (With intra refresh
            // ffprobe's decoder flags only the IDR; its parser, like us, flags every recovery point.)
            #expect(ours.filter { $0 }.count == probe.decodedKeyFrames)
            #expect(report.frames.filter(\.isKey).allSatisfy { $0.type == .i })
        }
        // The summary of the streaming analyser agrees.
        var analyzer = VideoStreamAnalyzer(format: .h264AnnexB)
        analyzer.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))) { _ in }
        let summary = analyzer.finish { _ in }
        #expect(summary.keyFrameCount == probe.packets.filter { $0 }.count)
        #expect(summary.gopLengthRuns.flatMap { Array(repeating: $0.length, count: $0.count) } == gopLengths(probe.packets))
    }
}

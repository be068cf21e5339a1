import Foundation
import Testing
import TestSupport

/// `streamkit inspect --json` on streams from encoders our other tests never use — Cisco's openh264 (one
/// slice and four) and kvazaar, through the modern FFmpeg — against ffprobe: picture size, profile,
/// frame count, the frame types and key frames, and every access unit's size.
@Suite(.enabled(if: ExternalTool.isRunnable("ffprobe") && ModernFFmpeg.isRunnable))
struct ForeignEncoderInspectTests {
    /// The encodes: file name → the modern FFmpeg's encoder options.
    static let recipes: [String: [String]] = [
        "openh264-1-slice.264": ["-c:v", "libopenh264", "-g", "10"],
        "openh264-4-slices.264": ["-c:v", "libopenh264", "-slices", "4", "-g", "10"],
        "openh264-high-cabac.264": ["-c:v", "libopenh264", "-profile:v", "high", "-coder", "cabac", "-g", "12"],
        "kvazaar.265": ["-c:v", "libkvazaar"],
        "kvazaar-period-8.265": ["-c:v", "libkvazaar", "-kvazaar-params", "period=8,gop=8"],
    ]

    @Test(arguments: recipes.keys.sorted())
    func inspectAgreesWithFFprobe(name: String) throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent(name).path
        let recipe = try #require(Self.recipes[name])
        try ModernFFmpeg.encodeTestPattern(recipe, to: path)
        let format = name.hasSuffix(".265") ? "hevc" : "h264"

        let output = try CLI.run(["inspect", "--json", path])
        #expect(output.status == 0, "inspect failed: \(output.standardError.prefix(400))")
        let report = try #require(try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any])
        let frames = try #require(report["frames"] as? [[String: Any]])

        let stream = try #require(try CLI.probe(path, ["-f", format, "-select_streams", "v:0", "-show_entries",
                                                        "stream=codec_name,width,height,profile", "-show_streams"]).first)
        #expect(report["codec"] as? String == stream["codec_name"])
        #expect(report["width"] as? Int == stream["width"].flatMap { Int($0) })
        #expect(report["height"] as? Int == stream["height"].flatMap { Int($0) })
        #expect(report["profile"] as? String == stream["profile"])

        // ffprobe lists frames in output order; its packet position puts them back in decoding order,
        // which is the order of our report.
        let probedFrames = try CLI.probe(path, ["-f", format, "-select_streams", "v:0", "-show_frames",
                                                "-show_entries", "frame=pict_type,key_frame,pkt_pos"])
            .sorted { Int($0["pkt_pos"] ?? "") ?? 0 < Int($1["pkt_pos"] ?? "") ?? 0 }
        #expect(frames.count == probedFrames.count, "frames: ours \(frames.count), ffprobe \(probedFrames.count)")
        #expect(frames.count >= 40)
        let ourTypes = frames.compactMap { $0["type"] as? String }.joined()
        let theirTypes = probedFrames.compactMap { $0["pict_type"] }.joined()
        #expect(ourTypes == theirTypes)
        let ourKeys = frames.indices.filter { frames[$0]["key"] as? Bool == true }
        let theirKeys = probedFrames.indices.filter { probedFrames[$0]["key_frame"] == "1" }
        #expect(ourKeys == theirKeys)
        if recipe.contains("-g") || recipe.joined().contains("period=") {
            #expect(theirKeys.count > 1, "the recipe should make more than one key frame")
        }

        let packets = try CLI.probe(path, ["-f", format, "-select_streams", "v:0", "-show_packets", "-show_entries", "packet=size"])
        let ourSizes = frames.compactMap { $0["size"] as? Int }
        let theirSizes = packets.compactMap { $0["size"].flatMap { Int($0) } }
        if format == "h264" {
            #expect(ourSizes == theirSizes)
        } else {
            // ffmpeg's HEVC parser gives a 4-byte start code's zero_byte to the previous packet (see
            // InspectOracleTests): sizes may differ by one byte each, the totals agree.
            #expect(ourSizes.count == theirSizes.count)
            #expect(zip(ourSizes, theirSizes).allSatisfy { abs($0 - $1) <= 1 })
            #expect(ourSizes.reduce(0, +) == theirSizes.reduce(0, +))
        }
    }
}

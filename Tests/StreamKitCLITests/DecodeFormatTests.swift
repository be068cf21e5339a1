#if FFmpeg
import Foundation
import Testing
import TestSupport

/// What `streamkit decode` writes about the stream besides the samples: the WAV speaker mask of
/// multichannel AAC, a notice when pictures are converted to 8-bit 4:2:0, and the Y4M interlacing
/// tag — each against ffmpeg/ffprobe.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct DecodeFormatTests {
    /// `dwChannelMask` of a WAV file's extensible `fmt ` chunk, read from its bytes; `nil` if the
    /// header is not extensible.
    static func channelMask(ofWAV path: String) throws -> UInt32? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if Array(bytes[offset..<(offset + 4)]) == Array("fmt ".utf8) {
                let chunk = offset + 8
                guard size >= 24, bytes[chunk] == 0xFE, bytes[chunk + 1] == 0xFF else { return nil }
                return UInt32(bytes[chunk + 20]) | UInt32(bytes[chunk + 21]) << 8 | UInt32(bytes[chunk + 22]) << 16 | UInt32(bytes[chunk + 23]) << 24
            }
            offset += 8 + size + (size & 1)
        }
        throw TestFailure("no fmt chunk in \(path)")
    }

    @Test(arguments: ["5.1", "3.0", "4.0", "5.0", "7.1"])
    func multichannelAACKeepsItsLayoutInTheWAV(layout: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let aac = directory.appendingPathComponent("tone.aac").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "1",
                                          "-af", "aformat=channel_layouts=\(layout)", "-c:a", "aac", aac])
        let ours = directory.appendingPathComponent("ours.wav").path
        let output = try CLI.run(["decode", aac, "-o", ours])
        #expect(output.status == 0, "\(output.standardError)")
        let theirs = directory.appendingPathComponent("theirs.wav").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", aac, theirs])

        let ourMask = try #require(try Self.channelMask(ofWAV: ours), "our WAV has no extensible header")
        let theirMask = try #require(try Self.channelMask(ofWAV: theirs), "ffmpeg's WAV has no extensible header")
        #expect(ourMask == theirMask, "dwChannelMask 0x\(String(ourMask, radix: 16)), ffmpeg's 0x\(String(theirMask, radix: 16))")
        if layout == "5.1" { #expect(ourMask == 0x3F) }
        let probed = try #require(try CLI.probe(ours, ["-show_streams", "-show_entries", "stream=channel_layout"]).first)
        #expect(probed["channel_layout"] == layout)
    }

    @Test(arguments: [("yuv420p10le", "10-bit 4:2:0"), ("yuv422p", "8-bit 4:2:2"), ("yuv444p", "8-bit 4:4:4"), ("yuv420p", nil)])
    func conversionTo8Bit420IsAnnounced(pixelFormat: String, announced: String?) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let stream = directory.appendingPathComponent("x.264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "10",
                                          "-pix_fmt", pixelFormat, "-c:v", "libx264", stream])
        // ffprobe is the oracle for what the stream holds.
        let probed = try #require(try CLI.probe(stream, ["-show_streams", "-show_entries", "stream=pix_fmt"]).first)
        #expect(probed["pix_fmt"] == pixelFormat)
        let y4m = directory.appendingPathComponent("x.y4m").path
        let output = try CLI.run(["decode", stream, "-o", y4m])
        #expect(output.status == 0, "\(output.standardError)")
        let notices = output.standardError.split(separator: "\n").filter { $0.contains("converted") }
        if let announced {
            #expect(notices.count == 1, "one notice: \(output.standardError)")
            #expect(notices.first?.contains(pixelFormat) == true && notices.first?.contains(announced) == true
                    && notices.first?.contains("8-bit 4:2:0") == true, "\(notices)")
        } else {
            #expect(notices.isEmpty, "no notice for an 8-bit 4:2:0 stream: \(output.standardError)")
        }
        // What is written is what ffmpeg's own conversion gives, frame for frame in count.
        let frames = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", y4m, "-f", "framemd5", "-"])
        #expect(CLI.frameHashes(frames.text).count == 10)
    }

    /// ffprobe's `field_order` as a Y4M `I` tag.
    static func y4mTag(forFieldOrder order: String?) -> String {
        switch order {
        case "tt", "tb": return "It"
        case "bb", "bt": return "Ib"
        case "progressive": return "Ip"
        default: return "I?"
        }
    }

    static func interlacingTag(ofY4M path: String) throws -> String? {
        let head = String(decoding: try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 200), as: UTF8.self)
        return head.split(separator: "\n").first?.split(separator: " ").first { $0.hasPrefix("I") }.map(String.init)
    }

    @Test(arguments: [("tff", ["-flags", "+ildct+ilme", "-x264-params", "tff=1"]),
                      ("bff", ["-flags", "+ildct+ilme", "-x264-params", "bff=1"]),
                      ("progressive", [])])
    func y4mInterlacingFollowsTheStream(name: String, options: [String]) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let stream = directory.appendingPathComponent("\(name).264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "10",
                                          "-pix_fmt", "yuv420p", "-c:v", "libx264"] + options + [stream])
        try expectInterlacingMatchesFFprobe(stream, in: directory)
    }

    /// The shared conformance streams with field pictures (PAFF) and MBAFF frames, and a progressive one.
    @Test(.requiresMedia, arguments: ["freh4.264", "Freh7_B.264", "FREXT01_JVC_D.264", "HCAMFF1_HHI.264", "freh5.264",
                                      "FRExt2_Panasonic.avc", "HCAFR1_HHI.264"])
    func y4mInterlacingOfConformanceStreams(name: String) throws {
        try expectInterlacingMatchesFFprobe(MediaFiles.url("h264-conformance/jvt-frext/\(name)").path,
                                            in: try ExternalTool.temporaryDirectory())
    }

    private func expectInterlacingMatchesFFprobe(_ stream: String, in directory: URL) throws {
        let fieldOrder = try #require(try CLI.probe(stream, ["-select_streams", "v:0", "-show_entries", "stream=field_order"]).first)["field_order"]
        let y4m = directory.appendingPathComponent("out.y4m").path
        let output = try CLI.run(["decode", stream, "-o", y4m])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(try Self.interlacingTag(ofY4M: y4m) == Self.y4mTag(forFieldOrder: fieldOrder), "ffprobe field_order \(fieldOrder ?? "none")")
    }
}
#endif

import Containers
import Foundation
import Testing
import TestSupport

/// `inspect` (the stream analysers) against ffprobe on every stream of the shared media and on streams
/// x264, x265 and ffmpeg make here: size, frame count, the sequence of frame types in display order, key
/// frames, access-unit sizes, and for AAC rate, channels, profile and frame count.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe", "x264", "x265")))
struct InspectOracleTests {
    static var sharedVideoStreams: [String] { MediaFiles.h264Streams + MediaFiles.hevcStreams }

    @Test(.requiresMedia, arguments: sharedVideoStreams)
    func sharedStreamMatchesFFprobe(stream: String) throws {
        try compareWithFFprobe(MediaFiles.url(stream).path)
    }

    /// Streams made here by the real encoders, covering the cases the issue names.
    static let generated: [(name: String, tool: String, arguments: [String])] = [
        ("baseline.264", "x264", ["--profile", "baseline", "--keyint", "10"]),
        ("main-cabac.264", "x264", ["--profile", "main", "--bframes", "2", "--keyint", "12"]),
        ("high-bframes-cabac.264", "x264", ["--profile", "high", "--bframes", "3", "--b-pyramid", "normal", "--keyint", "15"]),
        ("high-cavlc.264", "x264", ["--profile", "high", "--no-cabac", "--bframes", "2"]),
        ("slices.264", "x264", ["--slices", "4", "--bframes", "1"]),
        ("odd-size.264", "x264-odd", ["--bframes", "2"]),
        ("open-gop.264", "x264", ["--open-gop", "--keyint", "8", "--bframes", "3"]),
        ("interlaced.264", "x264", ["--tff", "--bframes", "2"]),
        ("hevc-bframes.265", "x265", ["--bframes", "4", "--keyint", "12"]),
        ("hevc-open-gop.265", "x265", ["--keyint", "10", "--open-gop", "--bframes", "3"]),
        ("hevc-odd-size.265", "x265-odd", ["--bframes", "2"]),
    ]

    @Test(arguments: generated.map(\.name))
    func generatedStreamMatchesFFprobe(name: String) async throws {
        guard let recipe = Self.generated.first(where: { $0.name == name }) else { return }
        let directory = try ExternalTool.temporaryDirectory()
        let odd = recipe.tool.hasSuffix("-odd")
        let size = odd ? "1918x1078" : "320x240"
        let source = directory.appendingPathComponent("source.y4m").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-frames:v", odd ? "6" : "40",
                                          "-pix_fmt", "yuv420p", source])
        let output = directory.appendingPathComponent(name).path
        if recipe.tool.hasPrefix("x264") {
            try await ExternalTool.check("x264", ["--quiet", "--no-progress"] + recipe.arguments + ["-o", output, source])
        } else {
            try await ExternalTool.check("x265", ["--log-level", "error", "--no-progress"] + recipe.arguments + ["-o", output, source])
        }
        try compareWithFFprobe(output)
    }

    @Test(arguments: [(8000, 1), (22050, 2), (44100, 1), (48000, 2), (96000, 2), (16000, 6)])
    func generatedAACMatchesFFprobe(sampleRate: Int, channels: Int) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let output = directory.appendingPathComponent("tone.aac").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate)",
                                          "-ac", "\(channels)", "-t", "1.5", "-c:a", "aac", output])
        try compareAACWithFFprobe(output)
    }

    @Test(.requiresMedia, arguments: MediaFiles.adtsStreams)
    func sharedADTSMatchesFFprobe(stream: String) throws {
        try compareAACWithFFprobe(MediaFiles.url(stream).path)
    }

    private func compareAACWithFFprobe(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ElementaryStreamFormat.detect(bytes) == .adts)
        let report = ADTSStreamAnalyzer.analyze(bytes)
        let probe = try FFprobeReport.probe(path, formatName: "aac")
        #expect(report.sampleRate == probe.sampleRate)
        #expect(report.channelCount == probe.channels)
        #expect(report.profile == probe.profile)
        // ffprobe's ADTS demuxer hands out a truncated last frame as a packet of its own.
        let truncated = report.issues.contains { $0.message.contains("truncated") } ? 1 : 0
        #expect(report.frameCount + truncated == probe.packetSizes.count)
    }

    private func compareWithFFprobe(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let format = try #require(ElementaryStreamFormat.detect(bytes))
        let report = VideoStreamAnalyzer.analyze(bytes, format: format)
        let probe = try FFprobeReport.probe(path, formatName: format == .hevcAnnexB ? "hevc" : "h264")
        #expect(probe.codec == (format == .hevcAnnexB ? "hevc" : "h264"))
        #expect(report.width == probe.width && report.height == probe.height,
                "size \(report.width ?? -1)x\(report.height ?? -1), ffprobe \(probe.width ?? -1)x\(probe.height ?? -1)")
        #expect(report.profile == probe.profile)
        #expect(report.issues.isEmpty, "\(report.issues.prefix(3))")
        // A decoder starts at the first I picture: pictures before it (a stream whose IDR was lost) are
        // access units we count but frames ffmpeg cannot output.
        let firstIntra = report.frames.firstIndex { $0.type == .i } ?? 0
        let decodable = report.frames.dropFirst(firstIntra)
        #expect(report.frames.count == probe.frames.count + firstIntra,
                "frames: ours \(report.frames.count), ffprobe \(probe.frames.count) + \(firstIntra) before the first I picture")
        var displayOrder = report
        displayOrder.frames = Array(decodable)
        let ours = displayOrder.framesInDisplayOrder.map(\.type.rawValue).joined()
        let theirs = probe.frames.map(\.pictureType).joined()
        #expect(ours == theirs)
        #expect(report.framesInDisplayOrder.filter(\.isKey).count <= probe.frames.filter(\.isKey).count)
        if report.frames.allSatisfy({ $0.fieldCount == 1 }) {
            let sizes = report.frames.map(\.size)
            if format == .h264AnnexB {
                #expect(sizes == probe.packetSizes, "access-unit sizes differ from ffprobe's packets")
            } else {
                // ffmpeg's HEVC parser gives the zero_byte of a 4-byte start code to the previous packet;
                // H.265 B.2.1 makes it part of the next byte_stream_nal_unit, as we count it. Sizes may
                // therefore differ by one byte per access unit, and the totals agree.
                #expect(sizes.count == probe.packetSizes.count)
                #expect(zip(sizes, probe.packetSizes).allSatisfy { abs($0 - $1) <= 1 })
                #expect(sizes.reduce(0, +) == probe.packetSizes.reduce(0, +))
            }
        }
    }
}

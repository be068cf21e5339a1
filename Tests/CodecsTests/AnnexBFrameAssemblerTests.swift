import Bitstream
import Codecs
import Foundation
import MediaCore
import Testing
import TestSupport

/// The Annex B → EncodedFrame assembler behind `DecompressionSession(annexBStreamOf:)`, checked against
/// ffprobe's packets (access units) of the same streams; needs no codec engine.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe", "x264")))
struct AnnexBFrameAssemblerTests {
    private func packetSizes(_ path: String, format: String) throws -> [Int] {
        try ExternalTool.check("ffprobe", ["-v", "error", "-f", format, "-show_packets", "-show_entries", "packet=size",
                                           "-of", "csv=p=0", path]).text.split(separator: "\n").compactMap { Int($0) }
    }

    /// Assembles a whole stream fed in chunks of `chunk` bytes.
    private func assemble(_ bytes: [UInt8], codec: CodecType, chunk: Int) -> (frames: [EncodedFrame], assembler: AnnexBFrameAssembler) {
        var assembler = AnnexBFrameAssembler(codec: codec)
        var frames: [EncodedFrame] = []
        var offset = 0
        while offset < bytes.count {
            frames += assembler.append(bytes[offset..<min(bytes.count, offset + chunk)])
            offset += chunk
        }
        frames += assembler.finish()
        return (frames, assembler)
    }

    @Test(.requiresMedia, arguments: [("encoded/cars_320x240.h264", CodecType.h264), ("encoded/cars_320x240.h265", .hevc), ("rtp/wilson_raw.h265", .hevc)])
    func accessUnitsMatchFFprobePackets(stream: String, codec: CodecType) throws {
        let bytes = try MediaFiles.bytes(stream)
        let (frames, assembler) = assemble(bytes, codec: codec, chunk: 777)
        let sizes = try packetSizes(MediaFiles.url(stream).path, format: codec == .hevc ? "hevc" : "h264")
        #expect(frames.count == sizes.count)
        #expect(assembler.skips.isEmpty)
        // Each frame holds exactly the NAL units of one packet: AVCC adds 4 bytes per unit where Annex B
        // has a 3- or 4-byte start code, so compare the NAL unit payloads.
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        let assembled = frames.flatMap { frame in frame.nalUnitRanges.map { Array(frame.data[$0]) } }
        #expect(assembled == units)
        #expect(frames.first?.isKeyFrame == true)
        #expect(frames.first?.format.codec == codec)
        #expect(frames.first?.format.parameterSets.count == (codec == .hevc ? 3 : 2))
        // Decode timestamps advance by one frame duration.
        #expect(frames.enumerated().allSatisfy { $0.element.dts.value == Int64($0.offset) * frames[0].duration.value })
    }

    @Test func joiningMidStreamStartsAtTheNextKeyFrame() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = directory.appendingPathComponent("s.y4m").path
        let stream = directory.appendingPathComponent("s.264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25", "-frames:v", "30", source])
        try await ExternalTool.check("x264", ["--quiet", "--keyint", "10", "--min-keyint", "10", "--no-scenecut", "--bframes", "0", "-o", stream, source])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stream)))
        // Cut into the middle of the first GOP: the assembler must skip to the IDR of frame 10.
        let cut = Array(bytes[(bytes.count / 5)...])
        let (frames, assembler) = assemble(cut, codec: .h264, chunk: 100)
        #expect(frames.count == 20)
        #expect(frames.first?.isKeyFrame == true)
        #expect(frames.filter(\.isKeyFrame).count == 2)
        #expect(assembler.skips.contains { if case .beforeFirstKeyFrame = $0 { return true } else { return false } })
    }

    /// x264 with B-frames (with and without the B-pyramid, several IDR periods): the presentation times the
    /// assembler gives from the picture order counts put the pictures in the display order ffmpeg's decoder
    /// puts out (`ffprobe -show_frames`: `coded_picture_number` in output order), one frame apart, none shown
    /// before it is decoded.
    @Test(arguments: [["--bframes", "2", "--b-pyramid", "none"], ["--bframes", "3", "--b-pyramid", "normal"], ["--bframes", "0"]])
    func presentationTimesFollowPictureOrderCounts(options: [String]) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("s.y4m").path
        let stream = directory.appendingPathComponent("s.264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25", "-frames:v", "40", source])
        try await ExternalTool.check("x264", ["--quiet", "--keyint", "12", "--min-keyint", "12", "--no-scenecut", "--b-adapt", "0", "-o", stream, source] + options)
        let displayed = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_frames", "-show_entries", "frame=coded_picture_number",
                                                           "-of", "csv=p=0", stream]).text
            .split(separator: "\n").compactMap { Int($0.split(separator: ",").first ?? "") }
        let (frames, _) = assemble([UInt8](try Data(contentsOf: URL(fileURLWithPath: stream))), codec: .h264, chunk: 1000)
        #expect(frames.count == 40 && displayed.count == 40)
        let step = frames[0].duration.value
        #expect(frames.enumerated().allSatisfy { $0.element.dts.value == Int64($0.offset) * step }, "decode order kept")
        #expect(frames.allSatisfy { $0.pts >= $0.dts }, "no picture shown before it is decoded")
        let order = frames.indices.sorted { frames[$0].pts < frames[$1].pts }
        #expect(order == displayed, "display order by pts = ffmpeg's output order")
        let shown = order.map { frames[$0].pts.value }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $1 - $0 == step }, "pts one frame apart: \(shown.prefix(10))")
        if options == ["--bframes", "0"] { #expect(frames.allSatisfy { $0.pts == $0.dts }, "no reordering: pts = dts") }
    }
}

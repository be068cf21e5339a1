import Foundation
import Testing
import TestSupport
@testable import Bitstream

/// Annex B → AVCC checked against ffmpeg: its MP4 muxer turns the same Annex B stream into
/// length-prefixed NAL units, and the `mdat` it writes with `-c copy` must equal our conversion.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct AnnexBOracleTests {
    static let streams = ["encoded/cars_320x240.h264", "encoded/cars_320x240.h265", "rtp/wilson_raw.h265",
                          "h264-conformance/jvt-avc-v1/BA1_FT_C.264", "h264-conformance/jvt-frext/FRExt1_Panasonic.avc"]

    @Test(.requiresMedia, arguments: streams)
    func avccEqualsTheMdatFFmpegWrites(stream: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let mp4 = directory.appendingPathComponent("out.mp4").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", MediaFiles.url(stream).path, "-c", "copy", "-an", mp4])
        let mdat = try #require(MP4Boxes.payloads(of: "mdat", in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4)))).first)
        let annexB = try MediaFiles.bytes(stream)
        let avcc = try AVCC.avcc(fromAnnexB: annexB)
        let ours = AnnexB.nalUnitRanges(in: annexB).map { annexB[$0] }
        // ffmpeg's HEVC muxer keeps a zero byte that precedes a 4-byte start code as part of the NAL unit;
        // H.264 §7.4.1 / H.265 §7.4.2 say a NAL unit never ends in 0x00 (it is a trailing_zero_8bits), so
        // compare NAL units with trailing zeros trimmed, and the whole mdat byte for byte for H.264.
        let theirs = try AVCC.nalUnitRanges(in: mdat).map { range in
            var end = range.upperBound
            while end > range.lowerBound && mdat[end - 1] == 0 { end -= 1 }
            return mdat[range.lowerBound..<end]
        }
        #expect(ours.count == theirs.count)
        let sameUnits = ours.elementsEqual(theirs)
        #expect(sameUnits)
        if !stream.hasSuffix("265") {
            #expect(avcc.count == mdat.count)
            let firstDifference = (0..<min(avcc.count, mdat.count)).first { avcc[$0] != mdat[$0] }  // no megabyte dumps
            #expect(firstDifference == nil, "first difference at byte \(firstDifference ?? -1)")
        }
        // Back to Annex B: the same NAL units, byte for byte.
        let again = try AVCC.annexB(fromAVCC: avcc)
        let roundTripped = AnnexB.nalUnitRanges(in: again).map { again[$0] } == ours
        #expect(roundTripped)
    }

    @Test(.requiresMedia, arguments: streams)
    func randomChunksGiveTheSameUnits(stream: String) throws {
        let bytes = try MediaFiles.bytes(stream)
        let whole = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        var scanner = AnnexBStreamScanner()
        var chunked: [[UInt8]] = []
        var offset = 0
        var generator = SystemRandomNumberGenerator()
        while offset < bytes.count {
            let size = min(bytes.count - offset, Int.random(in: 1...4_000, using: &generator))
            chunked += scanner.append(bytes[offset..<(offset + size)])
            offset += size
        }
        if let last = scanner.finish() { chunked.append(last) }
        #expect(chunked.count == whole.count)
        let same = chunked == whole
        #expect(same)
    }
}

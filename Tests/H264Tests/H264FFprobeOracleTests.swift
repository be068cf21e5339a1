import Bitstream
import H264
import TestSupport
import Testing

/// The conformance streams against ffprobe: picture size, profile and level of the SPS, and the
/// number of access units (ffprobe's packet count: its parser splits the stream into access units).
@Suite("Media streams against ffprobe")
struct H264FFprobeOracleTests {
    @Test("size, profile, level and access-unit count match ffprobe", .requiresMedia,
          .enabled(if: ExternalTool.isRunnable("ffprobe")),
          arguments: MediaFiles.h264Streams)
    func matchesFFprobe(path: String) throws {
        let stream = try MediaFiles.bytes(path)
        let probed = try H264TestSupport.probe(MediaFiles.url(path).path, countPackets: true)

        let firstSPS = try #require(AnnexB.nalUnitRanges(in: stream).map { stream[$0] }.first {
            $0.first.map { H264NALUnitType(headerByte: $0) } == .sequenceParameterSet
        })
        let sps = try H264SequenceParameterSet(nalUnit: firstSPS)
        #expect(sps.width == probed.width, "\(path): width")
        #expect(sps.height == probed.height, "\(path): height")
        #expect(sps.profileName == probed.profile, "\(path): profile")
        // ffprobe prints level_idc as an integer (30 for level 3, 9 for 1b).
        #expect(Int(sps.levelIDC) == probed.level, "\(path): level")

        // ffprobe prints the sample aspect ratio reduced, and nothing when the VUI has none.
        if let sar = sps.vuiParameters?.aspectRatio?.sampleAspectRatio {
            let divisor = Self.gcd(Int(sar.width), Int(sar.height))
            #expect(probed.sampleAspectRatio == "\(Int(sar.width) / divisor):\(Int(sar.height) / divisor)", "\(path): SAR")
        } else {
            #expect(probed.sampleAspectRatio == nil || probed.sampleAspectRatio == "0:1", "\(path): no SAR")
        }

        let units = try H264TestSupport.accessUnits(in: stream)
        #expect(units.allSatisfy { $0.picture != nil }, "\(path): every access unit has a primary picture")
        #expect(String(units.count) == probed.nbReadPackets, "\(path): access units vs ffprobe packets")
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        b == 0 ? max(a, 1) : gcd(b, a % b)
    }
}

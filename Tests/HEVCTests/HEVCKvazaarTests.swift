import Bitstream
import Foundation
import HEVC
import Testing
import TestSupport

/// Streams from kvazaar (through the modern FFmpeg): every VPS, SPS and PPS parses, writes back byte
/// for byte and agrees with ffprobe on size and profile; every slice segment finds its parameter sets.
@Suite(.enabled(if: ExternalTool.isRunnable("ffprobe") && ModernFFmpeg.isRunnable))
struct HEVCKvazaarTests {
    static let recipes: [String: [String]] = [
        "kvazaar": ["-c:v", "libkvazaar"],
        "kvazaar-period-8": ["-c:v", "libkvazaar", "-kvazaar-params", "period=8,gop=8"],
        "kvazaar-tiles": ["-c:v", "libkvazaar", "-kvazaar-params", "wpp=0,tiles=2x2,slices=tiles"],
    ]

    @Test(arguments: recipes.keys.sorted())
    func parameterSetsParseAndWriteBack(name: String) throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("\(name).265").path
        try ModernFFmpeg.encodeTestPattern(try #require(Self.recipes[name]), to: path, frames: 12)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))

        var sets = HEVCParameterSets()
        var counts = [HEVCNALUnitType: Int]()
        var slices = 0
        for unit in AnnexB.nalUnitRanges(in: bytes).map({ Array(bytes[$0]) }) {
            let header = try HEVCNALUnitHeader(parsing: unit)
            switch header.type {
            case .vps:
                let vps = try HEVCVideoParameterSet(nalUnit: unit)
                #expect(vps.nalUnit() == unit, "VPS \(vps.videoParameterSetID) differs after rewrite")
            case .sps:
                let sps = try HEVCSequenceParameterSet(nalUnit: unit)
                #expect(sps.nalUnit() == unit, "SPS \(sps.seqParameterSetID) differs after rewrite")
                let probe = try Oracle.videoStream(of: path)
                #expect(sps.width == probe["width"] as? Int && sps.height == probe["height"] as? Int)
                #expect(sps.profileName == probe["profile"] as? String)
                sets.insert(sps)
            case .pps:
                let pps = try HEVCPictureParameterSet(nalUnit: unit)
                #expect(pps.nalUnit() == unit, "PPS \(pps.picParameterSetID) differs after rewrite")
                sets.insert(pps)
            default:
                if header.type.isVCL {
                    _ = try HEVCSliceSegmentHeader(nalUnit: unit, parameterSets: sets)
                    slices += 1
                }
                continue
            }
            counts[header.type, default: 0] += 1
        }
        #expect(counts[.vps, default: 0] >= 1 && counts[.sps, default: 0] >= 1 && counts[.pps, default: 0] >= 1)
        #expect(slices >= 12)
    }
}

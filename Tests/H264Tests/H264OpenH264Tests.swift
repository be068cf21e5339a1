import Bitstream
import Foundation
import H264
import Testing
import TestSupport

/// Streams from Cisco's openh264 (through the modern FFmpeg): it writes `log2_max_mv_length_horizontal`
/// and `_vertical` = 16, which earlier editions of H.264 allowed. Their SPS and PPS must parse, agree
/// with ffprobe and write back byte-identically; every slice must find its parameter sets.
@Suite(.enabled(if: ExternalTool.isRunnable("ffprobe") && ModernFFmpeg.isRunnable))
struct H264OpenH264Tests {
    static let recipes: [String: [String]] = [
        "openh264-1-slice": ["-c:v", "libopenh264"],
        "openh264-4-slices": ["-c:v", "libopenh264", "-slices", "4"],
        "openh264-high-cabac": ["-c:v", "libopenh264", "-profile:v", "high", "-coder", "cabac"],
    ]

    @Test(arguments: recipes.keys.sorted())
    func parameterSetsParseAndWriteBack(name: String) throws {
        let directory = try ExternalTool.temporaryDirectory()
        let path = directory.appendingPathComponent("\(name).264").path
        try ModernFFmpeg.encodeTestPattern(try #require(Self.recipes[name]), to: path, frames: 12)
        let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))

        var sets = H264ParameterSets()
        var spsCount = 0
        var ppsCount = 0
        var restrictions: [H264VUIParameters.BitstreamRestriction] = []
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }) {
            switch try H264NALUnitHeader(parsing: nal).nalUnitType {
            case .sequenceParameterSet:
                let sps = try H264SequenceParameterSet(nalUnit: nal)
                #expect(sps.nalUnit() == Array(nal), "SPS \(sps.id) writes back differently")
                if let restriction = sps.vuiParameters?.bitstreamRestriction { restrictions.append(restriction) }
                sets.insert(sps)
                spsCount += 1
            case .pictureParameterSet:
                let pps = try H264PictureParameterSet(nalUnit: nal, parameterSets: sets)
                #expect(pps.nalUnit() == Array(nal), "PPS \(pps.id) writes back differently")
                sets.insert(pps)
                ppsCount += 1
            default:
                continue
            }
        }
        #expect(spsCount > 0 && ppsCount > 0)
        // What made openh264's streams fail: the value is 16 (this is the regression guard).
        #expect(restrictions.contains { $0.log2MaxMvLengthHorizontal == 16 && $0.log2MaxMvLengthVertical == 16 })

        let probed = try H264TestSupport.probe(path, countPackets: true)
        let sps = try #require(sets.sequenceParameterSets.values.first)
        #expect(sps.width == probed.width && sps.height == probed.height)
        #expect(sps.profileName == probed.profile)
        let units = try H264TestSupport.accessUnits(in: stream)
        #expect(units.allSatisfy { $0.picture != nil }, "every access unit has a primary picture")
        #expect(String(units.count) == probed.nbReadPackets)
        let slicesPerPicture = name.contains("4-slices") ? 4 : 1
        #expect(units.allSatisfy { $0.sliceHeaders.count == slicesPerPicture })
    }
}

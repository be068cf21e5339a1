import Bitstream
import H264
import TestSupport
import Testing

/// Parse → write must give back the exact bytes of every SPS and PPS of the shared media.
@Suite("SPS/PPS round trip")
struct H264ParameterSetRoundTripTests {
    @Test("every SPS and PPS of a media stream writes back byte-identical", .requiresMedia, arguments: MediaFiles.h264Streams)
    func roundTrip(path: String) throws {
        let stream = try MediaFiles.bytes(path)
        var sets = H264ParameterSets()
        var spsCount = 0
        var ppsCount = 0
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }) {
            let header = try H264NALUnitHeader(parsing: nal)
            switch header.nalUnitType {
            case .sequenceParameterSet:
                let sps = try H264SequenceParameterSet(nalUnit: nal)
                #expect(sps.nalUnit() == Array(nal), "SPS \(sps.id) of \(path)")
                #expect(try H264SequenceParameterSet(rbsp: sps.rbsp(), nalRefIDC: sps.nalRefIDC) == sps)
                sets.insert(sps)
                spsCount += 1
            case .pictureParameterSet:
                let pps = try H264PictureParameterSet(nalUnit: nal, parameterSets: sets)
                #expect(pps.nalUnit() == Array(nal), "PPS \(pps.id) of \(path)")
                sets.insert(pps)
                ppsCount += 1
            default:
                continue
            }
        }
        #expect(spsCount > 0 && ppsCount > 0, "\(path) has \(spsCount) SPS and \(ppsCount) PPS")
    }
}

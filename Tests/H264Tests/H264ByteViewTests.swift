import Testing
import TestSupport
@testable import Bitstream
@testable import H264

/// The H.264 parsers read NAL units handed to them as `ByteView`s (views into the stream, no copy)
/// exactly as they read arrays.
@Suite(.requiresMedia) struct H264ByteViewTests {
    @Test(arguments: ["encoded/cars_320x240.h264", "encoded/VID_1280x720_cabac_temporal_direct.264",
                      "h264-conformance/jvt-avc-v1/BA1_FT_C.264"])
    func viewsParseAsArrays(stream: String) throws {
        let bytes = try MediaFiles.bytes(stream)
        var fromViews = H264ParameterSets()
        var fromArrays = H264ParameterSets()
        var slices = 0
        var scratch: [UInt8] = []
        for unit in AnnexB.nalUnits(in: ByteView(bytes)) {
            let array = Array(unit)
            switch unit[0] & 0x1F {
            case 7, 8:
                let viewUpdate = try fromViews.process(nalUnit: unit)
                let arrayUpdate = try fromArrays.process(nalUnit: array)
                #expect(viewUpdate == arrayUpdate)
            case 1, 5:
                let fromView = try H264SliceHeader(nalUnit: unit, parameterSets: fromViews)
                #expect(fromView == (try H264SliceHeader(nalUnit: array, parameterSets: fromArrays)))
                #expect(fromView == (try H264SliceHeader(nalUnit: unit, parameterSets: fromViews, scratch: &scratch)))
                // The RBSP of the header bytes read in place when they hold no emulation-prevention byte.
                let rbsp = EmulationPrevention.rbsp(fromEBSP: try #require(unit.getView(at: 1, byteCount: min(64, unit.count - 1))))
                let header = try H264NALUnitHeader(parsing: unit)
                let direct = try H264SliceHeader(rbsp: Array(rbsp), nalUnitHeader: header,
                                                 pictureParameterSet: { fromViews.pictureParameterSet(id: $0) },
                                                 sequenceParameterSet: { fromViews.sequenceParameterSet(id: $0) })
                #expect(direct.bitCount == fromView.bitCount && direct.sliceQPDelta == fromView.sliceQPDelta)
                slices += 1
            default:
                break
            }
        }
        #expect(slices > 0)
    }
}

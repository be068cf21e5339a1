import Bitstream
import HEVC

/// Reads H.265 NAL units for the stream analyser (ITU-T H.265 §7.3.1.2, §7.4.2.4.4, §8.3.1).
struct HEVCNALUnitInterpreter: NALUnitInterpreter {
    private var detector = HEVCAccessUnitDetector()
    private var parameterSets = HEVCParameterSets()
    private var counter = HEVCPictureOrderCounter()
    private(set) var properties: VideoStreamProperties?
    /// The RBSP of the slice segment header being read, reused so that reading one does not allocate.
    private var scratch: [UInt8] = []

    func header(of nalUnit: ByteView) -> InterpretedNALUnit {
        guard nalUnit.count >= 2 else { return InterpretedNALUnit(type: -1, typeName: "truncated header") }
        let first = nalUnit[nalUnit.startIndex], second = nalUnit[nalUnit.startIndex + 1]
        let type = HEVCNALUnitType(rawValue: (first >> 1) & 0x3F) ?? .unspecified48
        return InterpretedNALUnit(type: Int(type.rawValue), typeName: type.description,
                                  temporalID: Int(second & 7) - 1, layerID: Int((first & 1) << 5 | second >> 3))
    }

    mutating func interpret(_ nalUnit: ByteView) throws -> InterpretedNALUnit {
        var unit = header(of: nalUnit)
        let header = try HEVCNALUnitHeader(parsing: nalUnit)
        var slice: HEVCSliceSegmentHeader?
        switch header.type.rawValue {
        case 32...34:
            _ = try parameterSets.insert(nalUnit: nalUnit)
            if header.type.rawValue == 33, properties == nil, let sps = parameterSets.sequenceParameterSets.values.first {
                properties = VideoStreamProperties(codec: .hevc, profile: sps.profileName, level: sps.levelName,
                                                   width: sps.width, height: sps.height, frameRate: sps.frameRate)
            }
        case 36, 37:
            counter.endOfSequence()
        case 0...31 where header.layerID == 0:
            slice = try HEVCSliceSegmentHeader(nalUnit: nalUnit, parameterSets: parameterSets, scratch: &scratch)
        default:
            break
        }
        unit.startsAccessUnit = detector.startsNewAccessUnit(header: header,
                                                             firstSliceSegmentInPicFlag: slice?.firstSliceSegmentInPicFlag ?? false)
        if let slice, slice.firstSliceSegmentInPicFlag {
            let (sps, _) = try parameterSets.activeParameterSets(pictureParameterSetID: slice.slicePicParameterSetID)
            let picture = counter.picture(for: slice, sps: sps)
            unit.picture = InterpretedPicture(
                type: Self.frameType(slice.sliceType), isKey: header.type.isIRAP,
                pictureOrderCount: picture.pictureOrderCount,
                resetsOrder: header.type.isIRAP && picture.noRaslOutputFlag,
                isTopField: nil, frameNumber: nil)
        }
        return unit
    }

    func fallbackStartsAccessUnit(_ nalUnit: ByteView, header: InterpretedNALUnit) -> Bool {
        if header.type == 35 { return true }
        guard (0...31).contains(header.type), header.layerID == 0, nalUnit.count > 2 else { return false }
        return nalUnit[nalUnit.startIndex + 2] & 0x80 != 0
    }

    private static func frameType(_ type: HEVCSliceType?) -> FrameType {
        switch type {
        case .b?: return .b
        case .p?: return .p
        case .i?, nil: return .i
        }
    }
}

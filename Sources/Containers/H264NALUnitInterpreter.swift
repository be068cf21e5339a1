import Bitstream
import H264

/// Reads H.264 NAL units for the stream analyser (ITU-T H.264 §7.3.1, §7.4.1.2.3–4, §8.2.1).
struct H264NALUnitInterpreter: NALUnitInterpreter {
    private var detector = H264AccessUnitDetector()
    private(set) var properties: VideoStreamProperties?
    /// Whether the access unit being read carries a recovery point SEI (D.2.8): its picture is a
    /// random-access point, as ffprobe counts it (an open-GOP I picture, or the start of an
    /// intra refresh).
    private var recoveryPointSeen = false

    func header(of nalUnit: ByteView) -> InterpretedNALUnit {
        guard let first = nalUnit.first else { return InterpretedNALUnit(type: -1, typeName: "empty") }
        let type = H264NALUnitType(headerByte: first)
        return InterpretedNALUnit(type: Int(type.rawValue), typeName: type.name, referenceIDC: Int(first >> 5 & 3))
    }

    mutating func interpret(_ nalUnit: ByteView) throws -> InterpretedNALUnit {
        var unit = header(of: nalUnit)
        let result = try detector.process(nalUnit)
        unit.startsAccessUnit = result.startsAccessUnit
        if result.startsAccessUnit { recoveryPointSeen = false }  // an earlier SEI belonged to the access unit before
        if result.nalUnitHeader.nalUnitType == .sequenceParameterSet, properties == nil,
           let sps = try? H264SequenceParameterSet(nalUnit: nalUnit) {
            properties = VideoStreamProperties(codec: .h264, profile: sps.profileName, level: sps.levelName,
                                               width: sps.width, height: sps.height, frameRate: sps.frameRate)
        }
        if result.nalUnitHeader.nalUnitType == .supplementalEnhancementInformation {
            // A cut or malformed SEI is an error to report.
            let messages = try H264SEIMessage.messages(inNALUnit: nalUnit)
            if messages.contains(where: { $0.payloadType == .recoveryPoint }) { recoveryPointSeen = true }
        }
        if let picture = result.picture {
            let isKey = picture.isIDR || recoveryPointSeen
            recoveryPointSeen = false
            unit.picture = InterpretedPicture(
                type: Self.frameType(picture.firstSliceType), isKey: isKey,
                pictureOrderCount: picture.pictureOrderCount.value, resetsOrder: picture.resetsPictureOrder,
                isTopField: picture.structure == .frame ? nil : picture.structure == .topField,
                frameNumber: Int(picture.frameNum))
        }
        return unit
    }

    func fallbackStartsAccessUnit(_ nalUnit: ByteView, header: InterpretedNALUnit) -> Bool {
        // An AUD, or a slice whose first_mb_in_slice is 0 (ue(v) code "1": the first payload bit is set).
        if header.type == 9 { return true }
        guard header.type == 1 || header.type == 5, nalUnit.count > 1 else { return false }
        return nalUnit[nalUnit.startIndex + 1] & 0x80 != 0
    }

    private static func frameType(_ type: H264SliceType) -> FrameType {
        switch type {
        case .i: return .i
        case .p: return .p
        case .b: return .b
        case .si: return .si
        case .sp: return .sp
        }
    }
}

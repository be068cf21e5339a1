import MediaCore

/// The parameter sets of a format as length-prefixed NAL units, repeated before key frames of an
/// `hev1` track (ISO/IEC 14496-15 §8.4.1: parameter sets may be in the samples).
enum MP4InBandParameterSets {
    static func prefix(for format: FormatDescription) -> [UInt8] {
        var out: [UInt8] = []
        let size = format.nalUnitLengthSize
        for unit in format.parameterSets {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: unit.count >> shift))
            }
            out += unit
        }
        return out
    }
}

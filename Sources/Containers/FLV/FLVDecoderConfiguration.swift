import Bitstream
import H264
import HEVC
import MediaCore

/// The decoder configuration records a video sequence start carries — `AVCDecoderConfigurationRecord`
/// (ISO/IEC 14496-15 §5.3.3.1) and `HEVCDecoderConfigurationRecord` (§8.3.3.1) — made from and read into a
/// ``FormatDescription``.
public enum FLVDecoderConfiguration {
    /// The `avcC` / `hvcC` record of a format (its parameter sets sorted by NAL unit type: SPS and PPS;
    /// VPS, SPS and PPS with `array_completeness` 1, as for `hvc1`).
    /// - Parameter format: an H.264 or H.265 format.
    /// - Returns: the record's bytes.
    /// - Throws: ``FLVError/Reason/invalidDecoderConfiguration(_:)`` when the parameter sets do not make one.
    public static func record(for format: FormatDescription) throws(FLVError) -> [UInt8] {
        let sets = format.parameterSets
        switch format.codec {
        case .h264:
            do {
                return try AVCDecoderConfigurationRecord(sequenceParameterSets: sets.filter { ($0.first ?? 0) & 0x1F == 7 },
                                                         pictureParameterSets: sets.filter { ($0.first ?? 0) & 0x1F == 8 },
                                                         nalUnitLength: format.nalUnitLengthSize).bytes()
            } catch {
                throw FLVError(.invalidDecoderConfiguration("avcC: \(error)"), offset: 0)
            }
        case .hevc:
            let kind = { (unit: [UInt8]) -> UInt8 in ((unit.first ?? 0) >> 1) & 0x3F }
            do {
                return try HEVCDecoderConfigurationRecord(
                    videoParameterSets: sets.filter { kind($0) == 32 }, sequenceParameterSets: sets.filter { kind($0) == 33 },
                    pictureParameterSets: sets.filter { kind($0) == 34 }, arrayCompleteness: true,
                    lengthSizeMinusOne: format.nalUnitLengthSize - 1).bytes()
            } catch {
                throw FLVError(.invalidDecoderConfiguration("hvcC: \(error)"), offset: 0)
            }
        case .aac, .opus:
            throw FLVError(.unrepresentable("\(format.codec == .aac ? "AAC" : "Opus") has no video decoder configuration"), offset: 0)
        }
    }

    /// The format a record describes: parameter sets, NAL unit length size, and the size, profile and
    /// level of its first SPS.
    /// - Parameters:
    ///   - record: the `avcC` / `hvcC` bytes.
    ///   - codec: H.264 or H.265.
    /// - Returns: the format and the record's NAL units in order (the `extradata` a decoder is given).
    /// - Throws: ``FLVError/Reason/invalidDecoderConfiguration(_:)`` for a record or SPS that does not parse.
    public static func format(from record: ByteView, codec: CodecType) throws(FLVError) -> (format: FormatDescription, nalUnits: [[UInt8]]) {
        let bytes = Array(record)
        switch codec {
        case .h264:
            let configuration: AVCDecoderConfigurationRecord
            do { configuration = try AVCDecoderConfigurationRecord(bytes: bytes) } catch {
                throw FLVError(.invalidDecoderConfiguration("avcC: \(error)"), offset: 0)
            }
            do {
                let format = try FormatDescription(avcConfiguration: configuration)
                return (format, format.parameterSets)
            } catch {
                throw FLVError(.invalidDecoderConfiguration("SPS: \(error)"), offset: 0)
            }
        case .hevc:
            let configuration: HEVCDecoderConfigurationRecord
            do { configuration = try HEVCDecoderConfigurationRecord(bytes: bytes) } catch {
                throw FLVError(.invalidDecoderConfiguration("hvcC: \(error)"), offset: 0)
            }
            do {
                return (try FormatDescription(hevcConfiguration: configuration), configuration.arrays.flatMap(\.nalUnits))
            } catch {
                throw FLVError(.invalidDecoderConfiguration("SPS: \(error)"), offset: 0)
            }
        case .aac, .opus:
            throw FLVError(.unrepresentable("\(codec == .aac ? "AAC" : "Opus") has no video decoder configuration"), offset: 0)
        }
    }
}

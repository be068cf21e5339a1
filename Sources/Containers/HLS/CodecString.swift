import HEVC
import MediaCore

/// The codec names of RFC 6381 §3 that an HLS `CODECS` attribute (RFC 8216 §4.3.4.2) and a browser's
/// `MediaSource.isTypeSupported` take: `avc1.64001F`, `hvc1.1.6.L93.B0`, `mp4a.40.2`.
public enum CodecString {
    /// The name of a video format, from its parameter sets.
    ///
    /// H.264 (RFC 6381 §3.3, ISO/IEC 14496-15 §5.4.1): `avc1.` and the SPS's `profile_idc`, constraint-flag
    /// byte and `level_idc` as six hex digits. H.265 (ISO/IEC 14496-15 Annex E.3): `hvc1.`, the profile
    /// space (none, `A`, `B`, `C`) and `general_profile_idc`, the 32 compatibility flags in reverse bit
    /// order in hex, the tier (`L`/`H`) and `general_level_idc`, then the six constraint bytes in hex
    /// with trailing zero bytes left out.
    /// - Parameters:
    ///   - format: the video format (its SPS is read).
    ///   - parameterSetsInBand: `true` names the sample entry that allows parameter sets in the samples
    ///     (`avc3`, `hev1`) instead of `avc1`, `hvc1`.
    /// - Returns: the codec string.
    /// - Throws: ``HLSError/codecString(_:reason:)`` when the SPS is missing or cannot be parsed, or the
    ///   codec is not video.
    public static func video(_ format: FormatDescription, parameterSetsInBand: Bool = false) throws(HLSError) -> String {
        switch format.codec {
        case .h264:
            guard let sps = format.parameterSets.first(where: { $0.first.map { $0 & 0x1F == 7 } ?? false }), sps.count >= 4 else {
                throw .codecString(.h264, reason: "no sequence parameter set of at least 4 bytes in the format description")
            }
            return (parameterSetsInBand ? "avc3." : "avc1.") + hex(sps[1], 2) + hex(sps[2], 2) + hex(sps[3], 2)
        case .hevc:
            guard let nalUnit = format.parameterSets.first(where: { $0.first.map { $0 >> 1 & 0x3F == 33 } ?? false }) else {
                throw .codecString(.hevc, reason: "no sequence parameter set in the format description")
            }
            let sps: HEVCSequenceParameterSet
            do { sps = try HEVCSequenceParameterSet(nalUnit: nalUnit) } catch {
                throw .codecString(.hevc, reason: "SPS: \(error)")
            }
            return (parameterSetsInBand ? "hev1." : "hvc1.") + hevcSuffix(sps.profileTierLevel)
        case .aac, .opus:
            throw .codecString(format.codec, reason: "not a video codec")
        }
    }

    /// The name of an audio format: `mp4a.40.` and the `audioObjectType` its AudioSpecificConfig starts
    /// with (RFC 6381 §3.3: ObjectTypeIndication 0x40, MPEG-4 audio; 2 for AAC-LC, 5 for HE-AAC with
    /// explicit SBR signalling, 29 for HE-AAC v2).
    /// - Parameter format: the audio format.
    /// - Returns: the codec string, for example `mp4a.40.2`.
    /// - Throws: ``HLSError/codecString(_:reason:)`` for an AudioSpecificConfig shorter than its object type.
    public static func audio(_ format: AudioFormatDescription) throws(HLSError) -> String {
        // Opus in ISOBMFF §4.4: the codecs parameter of an Opus track is "opus".
        if format.codec == .opus { return "opus" }
        let config = format.audioSpecificConfig
        guard let first = config.first else { throw .codecString(format.codec, reason: "empty AudioSpecificConfig") }
        var objectType = Int(first >> 3)
        if objectType == 31 { // audioObjectTypeExt: 32 + the next six bits (ISO/IEC 14496-3 §1.6.2.1)
            guard config.count >= 2 else { throw .codecString(format.codec, reason: "AudioSpecificConfig ends inside audioObjectTypeExt") }
            objectType = 32 + Int((first & 0x07) << 3 | config[1] >> 5)
        }
        return "mp4a.40.\(objectType)"
    }

    /// The part after `hvc1.` (ISO/IEC 14496-15 §E.3).
    static func hevcSuffix(_ level: HEVCProfileTierLevel) -> String {
        let profile = level.general
        let space = ["", "A", "B", "C"][profile.profileSpace & 3]
        var reversed: UInt32 = 0
        for bit in 0..<32 where profile.compatibilityFlags >> UInt32(bit) & 1 == 1 { reversed |= 1 << UInt32(31 - bit) }
        var text = "\(space)\(profile.profileIDC).\(String(reversed, radix: 16, uppercase: true))."
            + "\(profile.tierFlag ? "H" : "L")\(level.generalLevelIDC)"
        var constraintBytes = (0..<6).map { UInt8(truncatingIfNeeded: profile.constraintIndicatorFlags >> UInt64(40 - 8 * $0)) }
        while constraintBytes.last == 0 { constraintBytes.removeLast() }
        for byte in constraintBytes { text += "." + String(byte, radix: 16, uppercase: true) }
        return text
    }

    /// A byte in upper-case hex with leading zeros.
    private static func hex(_ byte: UInt8, _ width: Int) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

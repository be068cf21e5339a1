/// What is wrong with a WAV (RIFF/WAVE) file and where (byte offsets count from the start of the file).
public enum WAVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with `RIFF` (RF64, RIFX and others are not read); `found` is what it has.
    case notRIFF(found: String)
    /// The RIFF form type at byte 8 is not `WAVE`.
    case notWAVE(found: String)
    /// The file ends inside the RIFF header, a chunk header or the `fmt ` chunk.
    case truncatedHeader(byteOffset: Int, what: String)
    /// The `fmt ` chunk is shorter than its format needs.
    case formatChunkTooShort(byteOffset: Int, size: Int, needed: Int)
    /// No `fmt ` chunk before the `data` chunk (or none at all).
    case missingFormatChunk(byteOffset: Int)
    /// The file ends without a `data` chunk.
    case missingDataChunk(byteOffset: Int)
    /// The `fmt ` chunk is not PCM or IEEE float (for example 2, Microsoft ADPCM, or 7, μ-law).
    case unsupportedFormatTag(UInt16, name: String, byteOffset: Int)
    /// PCM that is not 16-bit, or float that is not 32-bit.
    case unsupportedBitDepth(formatTag: UInt16, bitsPerSample: Int, byteOffset: Int)
    /// A WAVE_FORMAT_EXTENSIBLE sub-format GUID that is not PCM or IEEE float.
    case unsupportedSubformat(guid: [UInt8], byteOffset: Int)
    /// A field of the `fmt ` chunk holds a value the format does not allow; `reason` says why.
    case invalidFormatField(field: String, value: Int, byteOffset: Int, reason: String)
    /// The `data` chunk (starting at `byteOffset`) ends early: `declaredBytes` were announced (`nil`
    /// for a streamed file without a size) and `availableBytes` are there, or the last sample frame is cut.
    case truncatedData(byteOffset: Int, declaredBytes: Int?, availableBytes: Int)
    /// Reading failed.
    case io(ContainerIOError)

    /// The name of a WAVE format tag, for example "Microsoft ADPCM" for 2.
    /// - Parameter tag: a `wFormatTag` value.
    /// - Returns: its name, or "unknown" with the number in hex.
    public static func formatTagName(_ tag: UInt16) -> String {
        switch tag {
        case 0x0001: return "PCM"
        case 0x0002: return "Microsoft ADPCM"
        case 0x0003: return "IEEE float"
        case 0x0006: return "A-law"
        case 0x0007: return "μ-law"
        case 0x0011: return "IMA ADPCM"
        case 0x0031: return "GSM 6.10"
        case 0x0050: return "MPEG"
        case 0x0055: return "MPEG Layer 3"
        case 0x00FF: return "AAC"
        case 0x2000: return "AC-3"
        case 0xFFFE: return "extensible"
        default: return "unknown (0x\(String(tag, radix: 16, uppercase: true)))"
        }
    }

    /// A one-line explanation naming the place.
    public var description: String {
        switch self {
        case let .notRIFF(found): return "WAV: the file starts with \"\(found)\", not RIFF"
        case let .notWAVE(found): return "WAV: the RIFF form type is \"\(found)\", not WAVE (byte 8)"
        case let .truncatedHeader(offset, what): return "WAV: the file ends inside the \(what) (byte \(offset))"
        case let .formatChunkTooShort(offset, size, needed):
            return "WAV: fmt chunk at byte \(offset) has \(size) bytes, needs \(needed)"
        case let .missingFormatChunk(offset): return "WAV: no fmt chunk before the data (byte \(offset))"
        case let .missingDataChunk(offset): return "WAV: no data chunk (file ends at byte \(offset))"
        case let .unsupportedFormatTag(tag, name, offset):
            return "WAV: format tag \(tag) (\(name)) at byte \(offset) is not supported: only PCM (1) and IEEE float (3)"
        case let .unsupportedBitDepth(tag, bits, offset):
            return "WAV: \(bits)-bit \(Self.formatTagName(tag)) at byte \(offset) is not supported: only 16-bit PCM and 32-bit float"
        case let .unsupportedSubformat(guid, offset):
            return "WAV: extensible sub-format \(guid.map { String($0, radix: 16) }.joined(separator: " ")) at byte \(offset) is not PCM or float"
        case let .invalidFormatField(field, value, offset, reason):
            return "WAV: fmt field \(field) = \(value) at byte \(offset): \(reason)"
        case let .truncatedData(offset, declared, available):
            if let declared { return "WAV: data chunk at byte \(offset) declares \(declared) bytes, only \(available) are there" }
            return "WAV: data at byte \(offset) ends inside a sample frame after \(available) bytes"
        case let .io(error): return "WAV: \(error)"
        }
    }
}

import AAC
import Bitstream

/// Why an AAC stream or one of its frames cannot be decoded: which syntax element, and where (bit
/// offset inside the raw data block).
public enum NativeAACError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream's audio object type is not AAC-LC (object type 2): HE-AAC (SBR, 5), HE-AACv2 (PS,
    /// 29), AAC Main (1), LTP (4), the error-resilient types … are refused by name.
    case unsupportedObjectType(AudioObjectType)
    /// The configuration cannot be decoded (no AudioSpecificConfig, frame length 960, a sampling rate
    /// with no index, no channel layout …); the text says which.
    case unsupportedConfiguration(String)
    /// A syntax element this AAC-LC decoder does not implement (`coupling_channel_element`,
    /// `gain_control_data`, `predictor_data`), at a bit offset of the raw data block.
    case unsupportedElement(String, bitOffset: Int)
    /// A field could not be read (the data ended, or an impossible value): the bit reader's error.
    case syntax(SyntaxError)
    /// A field holds a value the syntax does not allow: its name, where, and why.
    case invalidValue(field: String, bitOffset: Int, reason: String)
    /// The bits of a Huffman codeword match no codeword of the codebook.
    case invalidHuffmanCode(codebook: String, bitOffset: Int)
    /// The raw data block ended inside the element named.
    case truncated(element: String, bitOffset: Int)
    /// The ADTS `crc_check` does not match the frame.
    case crcMismatch(stored: UInt16, computed: UInt16)

    /// What is wrong.
    public var description: String {
        switch self {
        case let .unsupportedObjectType(type):
            return "audio object type \(type) is not supported (the native decoder decodes AAC-LC, object type 2)"
        case let .unsupportedConfiguration(text): return "unsupported AAC configuration: \(text)"
        case let .unsupportedElement(name, bit): return "\(name) is not supported by the AAC-LC decoder (bit \(bit))"
        case let .syntax(error): return "AAC raw data block: \(error)"
        case let .invalidValue(field, bit, reason): return "\(field): \(reason) (bit \(bit))"
        case let .invalidHuffmanCode(codebook, bit): return "\(codebook): no codeword matches the bits at bit \(bit)"
        case let .truncated(element, bit): return "\(element): the raw data block ends inside it (bit \(bit))"
        case let .crcMismatch(stored, computed):
            return "crc_check mismatch: stored 0x\(String(stored, radix: 16)), computed 0x\(String(computed, radix: 16))"
        }
    }
}

/// A four-character code naming a codec in an Enhanced RTMP `ExVideoTagHeader` (veovera enhanced-rtmp
/// v1, "Extending the VideoTagHeader": `VideoFourCc UI32`), first character in the most significant byte.
public struct FLVFourCC: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code, big-endian: `avc1` is 0x61766331.
    public var rawValue: UInt32

    /// A code from its 32-bit value.
    /// - Parameter rawValue: the code, first character in the most significant byte.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A code from four ASCII characters, or `nil` for text of another length or beyond ASCII.
    /// - Parameter text: for example `"hvc1"`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// H.264 (enhanced-rtmp v1): the sequence start carries an `AVCDecoderConfigurationRecord`.
    public static let avc1 = FLVFourCC(rawValue: 0x6176_6331)
    /// H.265 (enhanced-rtmp v1): the sequence start carries an `HEVCDecoderConfigurationRecord`.
    public static let hvc1 = FLVFourCC(rawValue: 0x6876_6331)
    /// AV1 (enhanced-rtmp v1): an `AV1CodecConfigurationRecord` (carried, not interpreted, here).
    public static let av01 = FLVFourCC(rawValue: 0x6176_3031)
    /// VP9 (enhanced-rtmp v1): a `VPCodecConfigurationRecord` (carried, not interpreted, here).
    public static let vp09 = FLVFourCC(rawValue: 0x7670_3039)

    /// Whether `CodedFrames` of this codec start with a signed 24-bit composition time (v1: `avc1`, `hvc1`).
    public var hasCompositionTime: Bool { self == .avc1 || self == .hvc1 }

    /// The four characters, for example `hvc1`; bytes outside printable ASCII show as `?`.
    public var description: String {
        String((0..<4).map { index -> Character in
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(24 - 8 * index))
            return (0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : "?"
        })
    }
}

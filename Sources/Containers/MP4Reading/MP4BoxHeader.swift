/// The header of one box (ISO/IEC 14496-12 §4.2 `Box`): its type, where it lies in the file and how big it
/// is, after the 64-bit `largesize`, the "to end of file" size 0 and the `uuid` extended type are resolved.
public struct MP4BoxHeader: Sendable, Hashable {
    /// The four-character type as a big-endian integer (`0x6D6F6F76` for `moov`).
    public var typeCode: UInt32
    /// The byte offset of the box's first byte in the file.
    public var offset: Int
    /// The size of the header: 8, 16 with a `largesize`, 16 more with a `uuid` extended type.
    public var headerSize: Int
    /// The size of the whole box, header included.
    public var size: Int
    /// The 16-byte extended type of a `uuid` box, `nil` for other boxes.
    public var extendedType: [UInt8]?

    /// Creates a header.
    /// - Parameters:
    ///   - typeCode: the four-character type.
    ///   - offset: where the box starts.
    ///   - headerSize: the size of its header.
    ///   - size: the size of the whole box.
    ///   - extendedType: the `uuid` extended type.
    public init(typeCode: UInt32, offset: Int, headerSize: Int, size: Int, extendedType: [UInt8]? = nil) {
        self.typeCode = typeCode
        self.offset = offset
        self.headerSize = headerSize
        self.size = size
        self.extendedType = extendedType
    }

    /// The four-character type as text (`moov`); bytes outside printable ASCII appear as `?`.
    public var type: String { MP4FourCC.string(typeCode) }
    /// The offsets of the box's payload (after the header).
    public var payloadRange: Range<Int> { (offset + headerSize)..<(offset + size) }
    /// The offset just past the box.
    public var endOffset: Int { offset + size }
}

/// Four-character codes (ISO/IEC 14496-12 §4.2 `unsigned int(32) type`) as integers and text.
enum MP4FourCC {
    /// The code of a four-character literal.
    static func code(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { buffer in buffer.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    }

    /// The text of a code; unprintable bytes become `?`.
    static func string(_ code: UInt32) -> String {
        var characters = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: code >> UInt32(shift))
            characters.append(byte >= 0x20 && byte < 0x7F ? Character(UnicodeScalar(byte)) : "?")
        }
        return characters
    }
}

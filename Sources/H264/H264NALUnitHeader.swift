/// The NAL unit header of ITU-T H.264 §7.3.1: `forbidden_zero_bit`, `nal_ref_idc`, `nal_unit_type`.
///
/// The header is one byte; for types 14, 20 and 21 three extension bytes follow
/// (`nal_unit_header_svc_extension`, `…_mvc_extension`, `…_3davc_extension`), which this type does
/// not interpret — ``length`` says how many bytes to skip before the RBSP.
public struct H264NALUnitHeader: Sendable, Hashable {
    /// `nal_ref_idc`: 0 for a NAL unit that no reference picture depends on, 1…3 otherwise.
    public var nalRefIDC: UInt8
    /// `nal_unit_type`.
    public var nalUnitType: H264NALUnitType

    /// Creates a header.
    /// - Parameters:
    ///   - nalRefIDC: `nal_ref_idc`, 0…3 (higher bits are dropped when written).
    ///   - nalUnitType: `nal_unit_type`.
    public init(nalRefIDC: UInt8, nalUnitType: H264NALUnitType) {
        self.nalRefIDC = nalRefIDC & 3
        self.nalUnitType = nalUnitType
    }

    /// Reads the header of a NAL unit (ITU-T H.264 §7.3.1 `nal_unit( )`, first byte).
    /// - Parameter nalUnit: the NAL unit, without start code or length prefix.
    /// - Throws: ``H264Error/emptyNALUnit`` when there is no byte, ``H264Error/forbiddenZeroBitSet(nalUnitType:)``
    ///   when the first bit is 1, ``H264Error/truncatedNALUnitHeader(nalUnitType:byteCount:)`` when a
    ///   type 14, 20 or 21 unit is shorter than 4 bytes.
    public init<Bytes: Collection>(parsing nalUnit: Bytes) throws(H264Error) where Bytes.Element == UInt8 {
        // Through the contiguous storage when there is one: `first` from unspecialised generic code
        // allocates (its `subscript.read` coroutine), and this runs for every NAL unit of a stream.
        let leading: UInt8?
        if let contiguous = nalUnit.withContiguousStorageIfAvailable({ $0.first }) {
            leading = contiguous
        } else {
            leading = nalUnit.first
        }
        guard let byte = leading else { throw .emptyNALUnit }
        let type = H264NALUnitType(headerByte: byte)
        guard byte & 0x80 == 0 else { throw .forbiddenZeroBitSet(nalUnitType: type) }
        if type.headerLength > 1 {
            let count = nalUnit.count
            guard count >= type.headerLength else { throw .truncatedNALUnitHeader(nalUnitType: type, byteCount: count) }
        }
        self.init(nalRefIDC: (byte >> 5) & 3, nalUnitType: type)
    }

    /// The header byte: `forbidden_zero_bit` (0), `nal_ref_idc`, `nal_unit_type`.
    public var byte: UInt8 { (nalRefIDC & 3) << 5 | nalUnitType.rawValue }

    /// The length of the whole header in bytes: 1, or 4 for types 14, 20 and 21.
    public var length: Int { nalUnitType.headerLength }

    /// Whether `nal_ref_idc` is not 0 (the NAL unit belongs to a reference picture or is a parameter set).
    public var isReference: Bool { nalRefIDC != 0 }
}

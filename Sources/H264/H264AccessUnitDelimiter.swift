import Bitstream

/// An access unit delimiter: `access_unit_delimiter_rbsp( )` of ITU-T H.264 §7.3.2.4.
public struct H264AccessUnitDelimiter: Sendable, Hashable {
    /// `primary_pic_type`, 0…7: which slice types the primary coded picture may contain (Table 7-5).
    public var primaryPicType: UInt8

    /// Creates a delimiter.
    /// - Parameter primaryPicType: `primary_pic_type`, 0…7 (higher bits are dropped when written).
    public init(primaryPicType: UInt8) {
        self.primaryPicType = primaryPicType & 7
    }

    /// Parses an AUD NAL unit (ITU-T H.264 §7.3.2.4).
    /// - Parameter nalUnit: the NAL unit (type 9), without start code.
    /// - Throws: ``H264Error``: a wrong type, a bad header, or ``H264Error/syntax(_:nalUnitType:)``.
    public init<Bytes: Collection>(nalUnit: Bytes) throws(H264Error) where Bytes.Element == UInt8 {
        let (_, rbsp) = try H264RBSP.split(nalUnit, expecting: .accessUnitDelimiter)
        primaryPicType = try H264RBSP.parse(.accessUnitDelimiter) { () throws(SyntaxError) -> UInt8 in
            var reader = BitReader(rbsp)
            let value = try reader.u8(3, "primary_pic_type")
            try reader.finishRBSP()
            return value
        }
    }

    /// The slice types the primary coded picture may contain (Table 7-5).
    public var allowedSliceTypes: Set<H264SliceType> {
        switch primaryPicType {
        case 0: return [.i]
        case 1: return [.i, .p]
        case 2: return [.i, .p, .b]
        case 3: return [.si]
        case 4: return [.si, .sp]
        case 5: return [.i, .si]
        case 6: return [.i, .si, .p, .sp]
        default: return [.i, .si, .p, .sp, .b]
        }
    }

    /// The RBSP: `primary_pic_type` and the trailing bits.
    /// - Returns: the RBSP bytes (one byte).
    public func rbsp() -> [UInt8] {
        [(primaryPicType & 7) << 5 | 0x10]
    }

    /// The whole NAL unit (`nal_ref_idc` 0, type 9).
    /// - Returns: the NAL unit bytes, without start code.
    public func nalUnit() -> [UInt8] {
        H264RBSP.nalUnit(header: H264NALUnitHeader(nalRefIDC: 0, nalUnitType: .accessUnitDelimiter), rbsp: rbsp())
    }
}

import Bitstream

/// What the stream analyser needs to know about one NAL unit, whatever the codec.
struct InterpretedNALUnit {
    /// `nal_unit_type`.
    var type: Int
    /// The type's name.
    var typeName: String
    /// `nal_ref_idc` (H.264).
    var referenceIDC: Int?
    /// The temporal id (H.265).
    var temporalID: Int?
    /// The layer id (H.265).
    var layerID: Int?
    /// Whether the NAL unit starts a new access unit.
    var startsAccessUnit = false
    /// The picture, on the first VCL NAL unit of a primary coded picture.
    var picture: InterpretedPicture?
}

/// A coded picture as the analyser counts it.
struct InterpretedPicture {
    /// The first slice's type.
    var type: FrameType
    /// IDR or recovery point SEI (H.264), IRAP (H.265).
    var isKey: Bool
    /// The picture order count.
    var pictureOrderCount: Int
    /// Whether the picture starts a new picture-order epoch (IDR, MMCO 5, IRAP with NoRaslOutputFlag).
    var resetsOrder: Bool
    /// `nil` for a frame; `true`/`false` for a top/bottom field.
    var isTopField: Bool?
    /// `frame_num` for H.264 fields, to pair complementary fields.
    var frameNumber: Int?
}

/// The codec-specific half of the stream analyser: reads NAL headers, parameter sets and slice headers.
protocol NALUnitInterpreter {
    /// The header fields of a NAL unit, read without failing (best effort for the `--nal` listing).
    /// - Parameter nalUnit: the NAL unit.
    /// - Returns: the fields; an unreadable header yields type −1.
    func header(of nalUnit: ByteView) -> InterpretedNALUnit

    /// Reads a NAL unit in decode order.
    /// - Parameter nalUnit: the NAL unit.
    /// - Returns: the header fields plus access-unit and picture information.
    /// - Throws: a typed error from the codec module, with the field and RBSP offset.
    mutating func interpret(_ nalUnit: ByteView) throws -> InterpretedNALUnit

    /// The properties of the stream, once a sequence parameter set has been read.
    var properties: VideoStreamProperties? { get }

    /// Whether an unreadable NAL unit should still start an access unit: an AUD, or a slice whose
    /// first syntax element says it is the first of its picture.
    /// - Parameters:
    ///   - nalUnit: the NAL unit.
    ///   - header: its header fields.
    /// - Returns: the best guess.
    func fallbackStartsAccessUnit(_ nalUnit: ByteView, header: InterpretedNALUnit) -> Bool
}

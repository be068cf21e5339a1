/// What an access unit's primary coded picture is, as ``H264AccessUnitDetector`` reports it with the
/// first VCL NAL unit of the picture.
public struct H264Picture: Sendable, Hashable {
    /// Frame, top field or bottom field.
    public var structure: H264PictureStructure
    /// Whether the picture is an IDR picture (`IdrPicFlag`).
    public var isIDR: Bool
    /// `nal_ref_idc` of the picture's slices (0 for a non-reference picture).
    public var nalRefIDC: UInt8
    /// `frame_num`.
    public var frameNum: UInt32
    /// The type of the picture's first slice.
    public var firstSliceType: H264SliceType
    /// `pic_parameter_set_id` of the picture's first slice.
    public var picParameterSetID: UInt32
    /// `seq_parameter_set_id` of the SPS the picture uses.
    public var seqParameterSetID: UInt32
    /// The picture order count (§8.2.1): sort pictures by ``H264PictureOrderCount/value`` between two
    /// pictures that ``resetsPictureOrder`` to get display order.
    public var pictureOrderCount: H264PictureOrderCount
    /// Whether the picture carries `memory_management_control_operation` 5.
    public var hasMemoryManagementControlOperation5: Bool

    /// Creates a picture description.
    /// - Parameters:
    ///   - structure: frame, top field or bottom field.
    ///   - isIDR: `IdrPicFlag`.
    ///   - nalRefIDC: `nal_ref_idc`.
    ///   - frameNum: `frame_num`.
    ///   - firstSliceType: the type of the first slice.
    ///   - picParameterSetID: the PPS id.
    ///   - seqParameterSetID: the SPS id.
    ///   - pictureOrderCount: the picture order count.
    ///   - hasMemoryManagementControlOperation5: whether the picture has MMCO 5.
    public init(structure: H264PictureStructure, isIDR: Bool, nalRefIDC: UInt8, frameNum: UInt32,
                firstSliceType: H264SliceType, picParameterSetID: UInt32, seqParameterSetID: UInt32,
                pictureOrderCount: H264PictureOrderCount, hasMemoryManagementControlOperation5: Bool) {
        self.structure = structure
        self.isIDR = isIDR
        self.nalRefIDC = nalRefIDC
        self.frameNum = frameNum
        self.firstSliceType = firstSliceType
        self.picParameterSetID = picParameterSetID
        self.seqParameterSetID = seqParameterSetID
        self.pictureOrderCount = pictureOrderCount
        self.hasMemoryManagementControlOperation5 = hasMemoryManagementControlOperation5
    }

    /// Whether the picture is a reference picture (`nal_ref_idc` not 0).
    public var isReference: Bool { nalRefIDC != 0 }

    /// Whether every earlier picture is output before this one, whatever the counts say: an IDR
    /// picture or a picture with MMCO 5 (§C.4.4).
    public var resetsPictureOrder: Bool { isIDR || hasMemoryManagementControlOperation5 }
}

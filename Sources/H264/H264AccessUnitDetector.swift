/// Groups NAL units, fed in decoding order, into access units (ITU-T H.264 §7.4.1.2.3) and describes
/// each primary coded picture, with its picture order count (§8.2.1).
///
/// A NAL unit starts a new access unit when it is the first of the stream, or when it follows the
/// last VCL NAL unit of a primary coded picture and is an access unit delimiter, an SPS, a PPS, an
/// SEI, a NAL unit of type 14…18, or the first VCL NAL unit of a new primary coded picture. A slice
/// starts a new primary picture when its header differs from the previous picture's first slice in
/// one of the ways §7.4.1.2.4 lists (`frame_num`, `pic_parameter_set_id`, `field_pic_flag`,
/// `bottom_field_flag`, `nal_ref_idc` zero versus non-zero, `pic_order_cnt_lsb` /
/// `delta_pic_order_cnt_bottom` for type 0, `delta_pic_order_cnt[ 0/1 ]` for type 1, `IdrPicFlag`,
/// `idr_pic_id`). Slices of redundant pictures (`redundant_pic_cnt` > 0) and data partitions B and C
/// stay in the current access unit. Fields are pictures of their own: each field is one access unit.
///
/// The detector keeps the SPSs and PPSs it sees (it needs them to read slice headers). When a NAL
/// unit cannot be read, the error is thrown and the detector's state is left as it was, as if the
/// NAL unit had not been fed.
public struct H264AccessUnitDetector: Sendable {
    /// What the detector found out about one NAL unit.
    public struct Result: Sendable, Hashable {
        /// The NAL unit's header.
        public var nalUnitHeader: H264NALUnitHeader
        /// Whether the NAL unit is the first of a new access unit.
        public var startsAccessUnit: Bool
        /// The slice header, for NAL unit types 1, 2 and 5.
        public var sliceHeader: H264SliceHeader?
        /// The picture, set on the first VCL NAL unit of a primary coded picture.
        public var picture: H264Picture?
    }

    /// The fields of a slice header that §7.4.1.2.4 compares.
    private struct PictureIdentity: Sendable, Hashable {
        var frameNum: UInt32
        var picParameterSetID: UInt32
        var fieldPicFlag: Bool
        var bottomFieldFlag: Bool
        var nalRefIDC: UInt8
        var picOrderCntType: UInt32
        var picOrderCntLsb: UInt32
        var deltaPicOrderCntBottom: Int32
        var deltaPicOrderCnt0: Int32
        var deltaPicOrderCnt1: Int32
        var isIDR: Bool
        var idrPicID: UInt32?

        init(_ header: H264SliceHeader, picOrderCntType: UInt32) {
            frameNum = header.frameNum
            picParameterSetID = header.picParameterSetID
            fieldPicFlag = header.fieldPicFlag
            bottomFieldFlag = header.bottomFieldFlag
            nalRefIDC = header.nalRefIDC
            self.picOrderCntType = picOrderCntType
            picOrderCntLsb = header.picOrderCntLsb
            deltaPicOrderCntBottom = header.deltaPicOrderCntBottom
            deltaPicOrderCnt0 = header.deltaPicOrderCnt0
            deltaPicOrderCnt1 = header.deltaPicOrderCnt1
            isIDR = header.isIDR
            idrPicID = header.idrPicID
        }

        /// Whether a slice with these values starts a new primary coded picture after `previous` (§7.4.1.2.4).
        func startsNewPicture(after previous: PictureIdentity) -> Bool {
            if frameNum != previous.frameNum || picParameterSetID != previous.picParameterSetID { return true }
            if fieldPicFlag != previous.fieldPicFlag { return true }
            if fieldPicFlag && bottomFieldFlag != previous.bottomFieldFlag { return true }
            if nalRefIDC != previous.nalRefIDC && (nalRefIDC == 0 || previous.nalRefIDC == 0) { return true }
            if picOrderCntType == 0 && previous.picOrderCntType == 0
                && (picOrderCntLsb != previous.picOrderCntLsb || deltaPicOrderCntBottom != previous.deltaPicOrderCntBottom) {
                return true
            }
            if picOrderCntType == 1 && previous.picOrderCntType == 1
                && (deltaPicOrderCnt0 != previous.deltaPicOrderCnt0 || deltaPicOrderCnt1 != previous.deltaPicOrderCnt1) {
                return true
            }
            if isIDR != previous.isIDR { return true }
            return isIDR && idrPicID != previous.idrPicID
        }
    }

    /// The parameter sets seen so far (and any given at creation).
    public private(set) var parameterSets: H264ParameterSets
    private var counter = H264PictureOrderCounter()
    private var nalUnitsInAccessUnit = 0
    private var accessUnitHasPrimaryPicture = false
    private var currentPicture: PictureIdentity?
    /// The RBSP of the slice header being read, reused from one slice to the next so that reading a
    /// slice header does not allocate.
    private var scratch: [UInt8] = []

    /// Creates a detector.
    /// - Parameter parameterSets: parameter sets known before the stream starts (for example from an
    ///   avcC record).
    public init(parameterSets: H264ParameterSets = H264ParameterSets()) {
        self.parameterSets = parameterSets
    }

    /// Feeds the next NAL unit in decoding order.
    /// - Parameter nalUnit: the NAL unit without start code or length prefix.
    /// - Returns: whether it starts an access unit, its slice header and, for the first VCL NAL unit
    ///   of a primary picture, the picture.
    /// - Throws: ``H264Error`` when the header, a parameter set or a slice header cannot be read, or
    ///   a slice names a parameter set that was never received. The state is then unchanged.
    public mutating func process<Bytes: Collection>(_ nalUnit: Bytes) throws(H264Error) -> Result where Bytes.Element == UInt8 {
        let header = try H264NALUnitHeader(parsing: nalUnit)
        let isFirst = nalUnitsInAccessUnit == 0
        var result = Result(nalUnitHeader: header, startsAccessUnit: false, sliceHeader: nil, picture: nil)
        switch header.nalUnitType {
        case .sequenceParameterSet, .pictureParameterSet:
            try parameterSets.process(nalUnit: nalUnit)
            result.startsAccessUnit = isFirst || accessUnitHasPrimaryPicture
        case .accessUnitDelimiter:
            result.startsAccessUnit = true
        case .supplementalEnhancementInformation, .prefix, .subsetSequenceParameterSet, .depthParameterSet,
             .reserved17, .reserved18:
            result.startsAccessUnit = isFirst || accessUnitHasPrimaryPicture
        case .nonIDRSlice, .idrSlice, .sliceDataPartitionA:
            let slice = try H264SliceHeader(nalUnit: nalUnit, parameterSets: parameterSets, scratch: &scratch)
            result.sliceHeader = slice
            guard !slice.isRedundant,
                  let pps = parameterSets.pictureParameterSet(id: slice.picParameterSetID),
                  let sps = parameterSets.sequenceParameterSet(id: pps.seqParameterSetID) else {
                result.startsAccessUnit = isFirst
                break
            }
            let identity = PictureIdentity(slice, picOrderCntType: sps.picOrderCntType)
            let newPicture: Bool
            if accessUnitHasPrimaryPicture, let currentPicture {
                newPicture = identity.startsNewPicture(after: currentPicture)
                result.startsAccessUnit = newPicture
            } else {
                newPicture = true
                result.startsAccessUnit = isFirst
            }
            if newPicture {
                let count = counter.pictureOrderCount(for: slice, sequenceParameterSet: sps)
                result.picture = H264Picture(
                    structure: slice.pictureStructure, isIDR: slice.isIDR, nalRefIDC: slice.nalRefIDC,
                    frameNum: slice.frameNum, firstSliceType: slice.sliceType,
                    picParameterSetID: slice.picParameterSetID, seqParameterSetID: sps.id,
                    pictureOrderCount: count,
                    hasMemoryManagementControlOperation5: slice.hasMemoryManagementControlOperation5)
                currentPicture = identity
            }
        default:
            result.startsAccessUnit = isFirst
        }
        if result.startsAccessUnit {
            nalUnitsInAccessUnit = 0
            accessUnitHasPrimaryPicture = false
        }
        if result.picture != nil { accessUnitHasPrimaryPicture = true }
        nalUnitsInAccessUnit += 1
        return result
    }
}

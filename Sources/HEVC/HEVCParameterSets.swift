/// The video, sequence and picture parameter sets received so far, by id.
///
/// A later parameter set with the same id replaces the earlier one, as in a decoder. Ids read from
/// a bitstream are bounded by the syntax (VPS and SPS 0…15, PPS 0…63), so parsing never grows the
/// store beyond 96 entries.
public struct HEVCParameterSets: Sendable, Hashable {
    /// Video parameter sets by `vps_video_parameter_set_id`.
    public private(set) var videoParameterSets: [Int: HEVCVideoParameterSet] = [:]
    /// Sequence parameter sets by `sps_seq_parameter_set_id`.
    public private(set) var sequenceParameterSets: [Int: HEVCSequenceParameterSet] = [:]
    /// Picture parameter sets by `pps_pic_parameter_set_id`.
    public private(set) var pictureParameterSets: [Int: HEVCPictureParameterSet] = [:]

    /// Creates an empty store.
    public init() {}

    /// Stores a VPS, replacing one with the same id.
    /// - Parameter vps: the video parameter set.
    public mutating func insert(_ vps: HEVCVideoParameterSet) {
        videoParameterSets[vps.videoParameterSetID] = vps
    }

    /// Stores an SPS, replacing one with the same id.
    /// - Parameter sps: the sequence parameter set.
    public mutating func insert(_ sps: HEVCSequenceParameterSet) {
        sequenceParameterSets[sps.seqParameterSetID] = sps
    }

    /// Stores a PPS, replacing one with the same id.
    /// - Parameter pps: the picture parameter set.
    public mutating func insert(_ pps: HEVCPictureParameterSet) {
        pictureParameterSets[pps.picParameterSetID] = pps
    }

    /// Parses and stores a NAL unit if it is a VPS, SPS or PPS.
    /// - Parameter nalUnit: any NAL unit, without start code.
    /// - Returns: the type of the parameter set stored, or `nil` when the NAL unit is of another type.
    /// - Throws: ``HEVCError`` when the header or the parameter set is malformed.
    @discardableResult
    public mutating func insert<Bytes: Collection>(nalUnit: Bytes) throws(HEVCError) -> HEVCNALUnitType? where Bytes.Element == UInt8 {
        let header = try HEVCNALUnitHeader(parsing: nalUnit)
        switch header.type {
        case .vps: insert(try HEVCVideoParameterSet(nalUnit: nalUnit))
        case .sps: insert(try HEVCSequenceParameterSet(nalUnit: nalUnit))
        case .pps: insert(try HEVCPictureParameterSet(nalUnit: nalUnit))
        default: return nil
        }
        return header.type
    }

    /// The VPS with an id.
    /// - Parameter id: `vps_video_parameter_set_id`.
    /// - Returns: the stored VPS.
    /// - Throws: ``HEVCError/unknownVideoParameterSet(id:)`` if none was stored.
    public func videoParameterSet(id: Int) throws(HEVCError) -> HEVCVideoParameterSet {
        guard let vps = videoParameterSets[id] else { throw .unknownVideoParameterSet(id: id) }
        return vps
    }

    /// The SPS with an id.
    /// - Parameter id: `sps_seq_parameter_set_id`.
    /// - Returns: the stored SPS.
    /// - Throws: ``HEVCError/unknownSequenceParameterSet(id:)`` if none was stored.
    public func sequenceParameterSet(id: Int) throws(HEVCError) -> HEVCSequenceParameterSet {
        guard let sps = sequenceParameterSets[id] else { throw .unknownSequenceParameterSet(id: id) }
        return sps
    }

    /// The PPS with an id.
    /// - Parameter id: `pps_pic_parameter_set_id`.
    /// - Returns: the stored PPS.
    /// - Throws: ``HEVCError/unknownPictureParameterSet(id:)`` if none was stored.
    public func pictureParameterSet(id: Int) throws(HEVCError) -> HEVCPictureParameterSet {
        guard let pps = pictureParameterSets[id] else { throw .unknownPictureParameterSet(id: id) }
        return pps
    }

    /// The PPS with an id and the SPS it refers to, checked against each other.
    /// - Parameter pictureParameterSetID: `slice_pic_parameter_set_id`.
    /// - Returns: the SPS and the PPS.
    /// - Throws: ``HEVCError/unknownPictureParameterSet(id:)``,
    ///   ``HEVCError/unknownSequenceParameterSet(id:)`` or
    ///   ``HEVCError/inconsistentParameterSets(field:reason:)``.
    public func activeParameterSets(pictureParameterSetID: Int) throws(HEVCError)
        -> (sps: HEVCSequenceParameterSet, pps: HEVCPictureParameterSet) {
        let pps = try pictureParameterSet(id: pictureParameterSetID)
        let sps = try sequenceParameterSet(id: pps.seqParameterSetID)
        try pps.validate(against: sps)
        return (sps, pps)
    }
}

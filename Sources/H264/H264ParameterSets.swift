/// The sequence and picture parameter sets a decoder keeps, by id, as they arrive in the stream.
///
/// A parameter set replaces the one stored with the same id. Replacing an SPS does not drop the
/// PPSs that refer to it: a conforming stream re-sends them (§7.4.1.2.1), and a PPS parsed against
/// the old SPS stays usable where the change does not matter.
public struct H264ParameterSets: Sendable, Hashable {
    /// The stored SPSs by `seq_parameter_set_id`.
    public private(set) var sequenceParameterSets: [UInt32: H264SequenceParameterSet] = [:]
    /// The stored PPSs by `pic_parameter_set_id`.
    public private(set) var pictureParameterSets: [UInt32: H264PictureParameterSet] = [:]

    /// What ``process(nalUnit:)`` did with a NAL unit.
    public enum Update: Sendable, Hashable {
        /// The NAL unit was an SPS and is now stored.
        case sequenceParameterSet(H264SequenceParameterSet)
        /// The NAL unit was a PPS and is now stored.
        case pictureParameterSet(H264PictureParameterSet)
        /// The NAL unit is of another type and was ignored.
        case ignored(H264NALUnitType)
    }

    /// Creates an empty store.
    public init() {}

    /// Creates a store holding the given parameter sets.
    /// - Parameters:
    ///   - sequenceParameterSets: SPSs, later ones replacing earlier ones with the same id.
    ///   - pictureParameterSets: PPSs, later ones replacing earlier ones with the same id.
    public init(sequenceParameterSets: [H264SequenceParameterSet], pictureParameterSets: [H264PictureParameterSet] = []) {
        for sps in sequenceParameterSets { insert(sps) }
        for pps in pictureParameterSets { insert(pps) }
    }

    /// Stores an SPS, replacing the one with the same id.
    /// - Parameter sps: the sequence parameter set.
    public mutating func insert(_ sps: H264SequenceParameterSet) {
        sequenceParameterSets[sps.id] = sps
    }

    /// Stores a PPS, replacing the one with the same id.
    /// - Parameter pps: the picture parameter set.
    public mutating func insert(_ pps: H264PictureParameterSet) {
        pictureParameterSets[pps.id] = pps
    }

    /// The SPS with the given id, if stored.
    /// - Parameter id: `seq_parameter_set_id`.
    /// - Returns: the SPS or `nil`.
    public func sequenceParameterSet(id: UInt32) -> H264SequenceParameterSet? {
        sequenceParameterSets[id]
    }

    /// The PPS with the given id, if stored.
    /// - Parameter id: `pic_parameter_set_id`.
    /// - Returns: the PPS or `nil`.
    public func pictureParameterSet(id: UInt32) -> H264PictureParameterSet? {
        pictureParameterSets[id]
    }

    /// Parses an SPS or PPS NAL unit and stores it; other NAL unit types are ignored.
    /// - Parameter nalUnit: a NAL unit without start code.
    /// - Returns: what was stored, or ``Update/ignored(_:)``.
    /// - Throws: ``H264Error`` when the header or the parameter set is malformed (nothing is stored then).
    @discardableResult
    public mutating func process<Bytes: Collection>(nalUnit: Bytes) throws(H264Error) -> Update where Bytes.Element == UInt8 {
        let header = try H264NALUnitHeader(parsing: nalUnit)
        switch header.nalUnitType {
        case .sequenceParameterSet:
            let sps = try H264SequenceParameterSet(nalUnit: nalUnit)
            insert(sps)
            return .sequenceParameterSet(sps)
        case .pictureParameterSet:
            let pps = try H264PictureParameterSet(nalUnit: nalUnit, parameterSets: self)
            insert(pps)
            return .pictureParameterSet(pps)
        default:
            return .ignored(header.nalUnitType)
        }
    }
}

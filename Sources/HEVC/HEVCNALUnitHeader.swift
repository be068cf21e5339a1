import Bitstream

/// The two-byte NAL unit header of ITU-T H.265 §7.3.1.2.
///
/// `forbidden_zero_bit` is not stored: it must be 0, parsing rejects a 1 and writing emits 0.
public struct HEVCNALUnitHeader: Sendable, Hashable, CustomStringConvertible {
    /// `nal_unit_type`.
    public var type: HEVCNALUnitType
    /// `nuh_layer_id`, 0…63 (0 for single-layer streams).
    public var layerID: UInt8
    /// `nuh_temporal_id_plus1`, 1…7.
    public var temporalIDPlus1: UInt8

    /// The size of the header in bytes.
    public static let byteCount = 2

    /// Creates a header.
    /// - Parameters:
    ///   - type: `nal_unit_type`.
    ///   - layerID: `nuh_layer_id`; only the low six bits are written.
    ///   - temporalIDPlus1: `nuh_temporal_id_plus1`; must be 1…7 for a conforming stream.
    public init(type: HEVCNALUnitType, layerID: UInt8 = 0, temporalIDPlus1: UInt8 = 1) {
        self.type = type
        self.layerID = layerID
        self.temporalIDPlus1 = temporalIDPlus1
    }

    /// Parses `nal_unit_header()` (ITU-T H.265 §7.3.1.2) from the first two bytes of a NAL unit.
    /// - Parameter bytes: a NAL unit (or at least its first two bytes), without start code.
    /// - Throws: ``HEVCError/truncatedNALUnitHeader(byteCount:)`` if fewer than two bytes are given,
    ///   ``HEVCError/forbiddenZeroBitSet(nalUnitType:)`` or ``HEVCError/zeroTemporalIDPlus1(nalUnitType:)``.
    public init<Bytes: Collection>(parsing bytes: Bytes) throws(HEVCError) where Bytes.Element == UInt8 {
        // Through the contiguous storage when there is one: iterating from unspecialised generic code
        // allocates for every byte (the `next()` coroutine), and this runs for every NAL unit of a stream.
        let leading: (UInt8, UInt8)?
        if let contiguous = bytes.withContiguousStorageIfAvailable({ $0.count >= 2 ? ($0[0], $0[1]) : nil }) {
            leading = contiguous
        } else {
            var iterator = bytes.makeIterator()
            if let first = iterator.next(), let second = iterator.next() { leading = (first, second) } else { leading = nil }
        }
        guard let (first, second) = leading else {
            throw .truncatedNALUnitHeader(byteCount: bytes.count)
        }
        let type = HEVCNALUnitType(sixBits: first >> 1)
        guard first & 0x80 == 0 else { throw .forbiddenZeroBitSet(nalUnitType: type) }
        let temporalIDPlus1 = second & 0x07
        guard temporalIDPlus1 != 0 else { throw .zeroTemporalIDPlus1(nalUnitType: type) }
        self.init(type: type, layerID: (first & 1) << 5 | second >> 3, temporalIDPlus1: temporalIDPlus1)
    }

    /// `TemporalId` = `nuh_temporal_id_plus1` − 1 (7-1).
    public var temporalID: Int { Int(temporalIDPlus1) - 1 }

    /// The two header bytes.
    public var bytes: [UInt8] {
        [type.rawValue << 1 | (layerID >> 5) & 1, (layerID & 0x1F) << 3 | temporalIDPlus1 & 0x07]
    }

    /// Writes the header (§7.3.1.2) into a bit writer.
    /// - Parameter writer: the writer; the header takes 16 bits.
    public func write(to writer: inout BitWriter) {
        writer.flag(false)
        writer.u(6, UInt32(type.rawValue))
        writer.u(6, UInt32(layerID & 0x3F))
        writer.u(3, UInt32(temporalIDPlus1 & 0x07))
    }

    /// For example `SPS_NUT layer 0 tid 0`.
    public var description: String { "\(type) layer \(layerID) tid \(temporalID)" }
}

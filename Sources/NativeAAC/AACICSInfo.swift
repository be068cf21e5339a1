import Bitstream

/// `ics_info()` (ISO/IEC 14496-3 §4.4.2.1, Table 4.6) of AAC-LC: the window sequence and shape, the
/// number of coded bands, and how the eight short windows are grouped.
public struct AACICSInfo: Sendable, Hashable {
    /// `window_sequence`.
    public var windowSequence: AACWindowSequence = .onlyLong
    /// `window_shape`.
    public var windowShape: AACWindowShape = .sine
    /// `max_sfb`: the bands coded per window.
    public var maxSFB = 0
    /// The number of windows in each group (`window_group_length[]`); one group of one window for
    /// long sequences.
    public var groupLengths: [Int] = [1]

    /// Creates an empty (long, sine, no bands) `ics_info`.
    public init() {}

    /// The number of windows: 8 or 1.
    public var windowCount: Int { windowSequence.isShort ? 8 : 1 }

    /// Reads `ics_info()` of an AAC-LC stream and checks `max_sfb` against the band table.
    /// - Parameters:
    ///   - reader: positioned at `ics_reserved_bit`.
    ///   - bands: the stream's band table.
    /// - Throws: ``NativeAACError`` for a value out of range, predictor data (not in AAC-LC), or the end
    ///   of the data.
    mutating func parse(_ reader: inout BitReader, bands: AACScalefactorBandTable) throws(NativeAACError) {
        let start = reader.bitPosition
        _ = try reader.aacBits(1, "ics_reserved_bit")
        windowSequence = AACWindowSequence(rawValue: UInt8(try reader.aacBits(2, "window_sequence"))) ?? .onlyLong
        windowShape = try reader.aacFlag("window_shape") ? .kaiserBesselDerived : .sine
        if windowSequence.isShort {
            maxSFB = try reader.aacBits(4, "max_sfb")
            let grouping = try reader.aacBits(7, "scale_factor_grouping")
            groupLengths.removeAll(keepingCapacity: true)
            groupLengths.append(1)
            for bit in (0..<7).reversed() {
                if grouping & (1 << bit) != 0 {
                    groupLengths[groupLengths.count - 1] += 1
                } else {
                    groupLengths.append(1)
                }
            }
            guard maxSFB <= bands.shortBandCount else {
                throw .invalidValue(field: "max_sfb", bitOffset: start + 4,
                                    reason: "\(maxSFB) exceeds the \(bands.shortBandCount) short-window bands")
            }
        } else {
            maxSFB = try reader.aacBits(6, "max_sfb")
            groupLengths.removeAll(keepingCapacity: true)
            groupLengths.append(1)
            guard maxSFB <= bands.longBandCount else {
                throw .invalidValue(field: "max_sfb", bitOffset: start + 4,
                                    reason: "\(maxSFB) exceeds the \(bands.longBandCount) long-window bands")
            }
            if try reader.aacFlag("predictor_data_present") {
                throw .unsupportedElement("predictor_data (AAC Main/LTP only)", bitOffset: reader.bitPosition - 1)
            }
        }
    }
}

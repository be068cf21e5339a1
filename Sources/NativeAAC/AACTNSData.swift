import Bitstream
import Foundation

/// `tns_data()` (ISO/IEC 14496-3 §4.4.2.7, Table 4.48) of AAC-LC, with each filter's coefficients
/// already converted to direct-form LPC coefficients (§4.6.9.3), and the filtering itself (§4.6.9.3
/// `tns_ar_filter`).
struct AACTNSData: Sendable {
    /// The most filters per window (2 bits for long windows: 3; short windows: 1).
    static let maximumFilters = 3
    /// The largest `order` (AAC-LC: 12 long, 7 short).
    static let maximumOrder = 12

    /// `n_filt[w]` of each of the 8 windows.
    var filterCounts = [Int](repeating: 0, count: 8)
    /// `length[w][f]`, at `w * 3 + f`.
    var lengths = [Int](repeating: 0, count: 8 * maximumFilters)
    /// `order[w][f]`, at `w * 3 + f`.
    var orders = [Int](repeating: 0, count: 8 * maximumFilters)
    /// `direction[w][f]`: whether the filter runs downwards.
    var downwards = [Bool](repeating: false, count: 8 * maximumFilters)
    /// LPC coefficients a[1…order], at `(w * 3 + f) * 12 + i − 1`.
    var coefficients = [Float](repeating: 0, count: 8 * maximumFilters * maximumOrder)

    /// Reads `tns_data()` and converts the coefficients.
    /// - Parameters:
    ///   - reader: positioned after `tns_data_present`.
    ///   - isShort: whether the frame has eight short windows.
    /// - Throws: ``NativeAACError`` for an order above the AAC-LC maximum or the end of the data.
    mutating func parse(_ reader: inout BitReader, isShort: Bool) throws(NativeAACError) {
        let windows = isShort ? 8 : 1
        let maximumOrder = isShort ? 7 : 12
        for window in 0..<windows {
            let count = try reader.aacBits(isShort ? 1 : 2, "n_filt")
            filterCounts[window] = count
            guard count > 0 else { continue }
            let resolution = try reader.aacBits(1, "coef_res") + 3
            for filter in 0..<count {
                let slot = window * Self.maximumFilters + filter
                lengths[slot] = try reader.aacBits(isShort ? 4 : 6, "length")
                let orderStart = reader.bitPosition
                let order = try reader.aacBits(isShort ? 3 : 5, "order")
                guard order <= maximumOrder else {
                    throw .invalidValue(field: "order", bitOffset: orderStart,
                                        reason: "TNS order \(order) exceeds the AAC-LC maximum \(maximumOrder)")
                }
                orders[slot] = order
                guard order > 0 else { continue }
                downwards[slot] = try reader.aacFlag("direction")
                let compress = try reader.aacBits(1, "coef_compress")
                let bits = resolution - compress
                var parcor = [Float](repeating: 0, count: order)
                let positiveScale = (Double(1 << (resolution - 1)) - 0.5) / (Double.pi / 2)
                let negativeScale = (Double(1 << (resolution - 1)) + 0.5) / (Double.pi / 2)
                for index in 0..<order {
                    var value = try reader.aacBits(bits, "coef")
                    if value & (1 << (bits - 1)) != 0 { value -= 1 << bits }
                    parcor[index] = Float(sin(Double(value) / (value >= 0 ? positiveScale : negativeScale)))
                }
                // §4.6.9.3: reflection (PARCOR) coefficients to direct-form LPC, order by order.
                var lpc = [Float](repeating: 0, count: order + 1)
                lpc[0] = 1
                var previous = lpc
                for m in 1...order {
                    for i in 1..<m { lpc[i] = previous[i] + parcor[m - 1] * previous[m - i] }
                    lpc[m] = parcor[m - 1]
                    previous = lpc
                }
                for index in 0..<order { coefficients[slot * Self.maximumOrder + index] = lpc[index + 1] }
            }
        }
    }

    /// Filters a channel's spectrum in place (§4.6.9.3): an all-pole filter over each filter's range
    /// of bands, upwards or downwards.
    /// - Parameters:
    ///   - spectrum: 1024 coefficients (8 × 128 for short windows).
    ///   - info: the channel's `ics_info`.
    ///   - bands: the stream's band table.
    func apply(to spectrum: inout [Float], info: AACICSInfo, bands: AACScalefactorBandTable) {
        let isShort = info.windowSequence.isShort
        let offsets = isShort ? bands.short : bands.long
        let bandCount = isShort ? bands.shortBandCount : bands.longBandCount
        let limit = min(isShort ? bands.tnsMaximumBandsShort : bands.tnsMaximumBandsLong, info.maxSFB)
        let windowLength = isShort ? 128 : 1024
        for window in 0..<info.windowCount {
            var bottom = bandCount
            for filter in 0..<filterCounts[window] {
                let slot = window * Self.maximumFilters + filter
                let top = bottom
                bottom = max(top - lengths[slot], 0)
                let order = orders[slot]
                guard order > 0 else { continue }
                let start = offsets[min(bottom, limit)]
                let end = offsets[min(top, limit)]
                let size = end - start
                guard size > 0 else { continue }
                let base = window * windowLength
                let step = downwards[slot] ? -1 : 1
                var position = base + (downwards[slot] ? end - 1 : start)
                for m in 0..<size {
                    var value = spectrum[position]
                    if m > 0 {
                        for i in 1...min(m, order) {
                            value -= spectrum[position - i * step] * coefficients[slot * Self.maximumOrder + i - 1]
                        }
                    }
                    spectrum[position] = value
                    position += step
                }
            }
        }
    }
}

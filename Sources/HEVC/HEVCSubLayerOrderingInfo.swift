import Bitstream

/// One entry of the sub-layer ordering information of a VPS (§7.3.2.1) or SPS (§7.3.2.2.1):
/// decoded picture buffer size, reordering depth and latency for one highest `TemporalId`.
public struct HEVCSubLayerOrderingInfo: Sendable, Hashable {
    /// `vps_/sps_max_dec_pic_buffering_minus1[i]`, 0…15 (MaxDpbSize − 1 at most).
    public var maxDecPicBufferingMinus1: Int
    /// `vps_/sps_max_num_reorder_pics[i]`, 0…`maxDecPicBufferingMinus1`.
    public var maxNumReorderPics: Int
    /// `vps_/sps_max_latency_increase_plus1[i]`, 0…2^32 − 2 (0 = no limit).
    public var maxLatencyIncreasePlus1: Int

    /// Creates an entry.
    /// - Parameters:
    ///   - maxDecPicBufferingMinus1: the DPB size minus 1.
    ///   - maxNumReorderPics: the most pictures that may precede another in decoding order and follow it in output order.
    ///   - maxLatencyIncreasePlus1: the latency bound plus 1, or 0 for none.
    public init(maxDecPicBufferingMinus1: Int = 4, maxNumReorderPics: Int = 0, maxLatencyIncreasePlus1: Int = 0) {
        self.maxDecPicBufferingMinus1 = maxDecPicBufferingMinus1
        self.maxNumReorderPics = maxNumReorderPics
        self.maxLatencyIncreasePlus1 = maxLatencyIncreasePlus1
    }

    /// `SpsMaxLatencyPictures` (7-9): the latency limit in pictures, or `nil` when there is none.
    public var maxLatencyPictures: Int? {
        maxLatencyIncreasePlus1 == 0 ? nil : maxNumReorderPics + maxLatencyIncreasePlus1 - 1
    }

    /// Reads the ordering loop of §7.3.2.1 / §7.3.2.2.1 and fills the entries that are not coded
    /// (when the present flag is 0, every entry equals the last one).
    /// - Parameters:
    ///   - reader: the reader, positioned at the first entry.
    ///   - infoPresent: `…_sub_layer_ordering_info_present_flag`.
    ///   - maxSubLayersMinus1: `…_max_sub_layers_minus1`.
    ///   - video: `true` for the VPS element names, `false` for the SPS ones.
    /// - Returns: `maxSubLayersMinus1 + 1` entries.
    /// - Throws: ``SyntaxError`` naming the element that ends early or is out of range.
    static func readList(from reader: inout BitReader, infoPresent: Bool, maxSubLayersMinus1: Int,
                         video: Bool) throws(SyntaxError) -> [HEVCSubLayerOrderingInfo] {
        var entries = [HEVCSubLayerOrderingInfo]()
        let first = infoPresent ? 0 : maxSubLayersMinus1
        for _ in first...maxSubLayersMinus1 {
            var entry = HEVCSubLayerOrderingInfo()
            let start = reader.bitPosition
            if video {
                entry.maxDecPicBufferingMinus1 = try reader.ueInt("vps_max_dec_pic_buffering_minus1", range: 0...15)
                entry.maxNumReorderPics = try reader.ueInt("vps_max_num_reorder_pics", range: 0...entry.maxDecPicBufferingMinus1)
                entry.maxLatencyIncreasePlus1 = Int(try reader.ue("vps_max_latency_increase_plus1"))
            } else {
                entry.maxDecPicBufferingMinus1 = try reader.ueInt("sps_max_dec_pic_buffering_minus1", range: 0...15)
                entry.maxNumReorderPics = try reader.ueInt("sps_max_num_reorder_pics", range: 0...entry.maxDecPicBufferingMinus1)
                entry.maxLatencyIncreasePlus1 = Int(try reader.ue("sps_max_latency_increase_plus1"))
            }
            if let previous = entries.last {
                if entry.maxDecPicBufferingMinus1 < previous.maxDecPicBufferingMinus1 {
                    throw SyntaxError(field: video ? "vps_max_dec_pic_buffering_minus1" : "sps_max_dec_pic_buffering_minus1",
                                      bitOffset: start,
                                      reason: .invalid("\(entry.maxDecPicBufferingMinus1) is below the lower sub-layer's \(previous.maxDecPicBufferingMinus1)"))
                }
                if entry.maxNumReorderPics < previous.maxNumReorderPics {
                    throw SyntaxError(field: video ? "vps_max_num_reorder_pics" : "sps_max_num_reorder_pics",
                                      bitOffset: start,
                                      reason: .invalid("\(entry.maxNumReorderPics) is below the lower sub-layer's \(previous.maxNumReorderPics)"))
                }
            }
            entries.append(entry)
        }
        if let last = entries.last, !infoPresent {
            entries = Array(repeating: last, count: maxSubLayersMinus1 + 1)
        }
        return entries
    }

    /// Writes the ordering loop: every entry when `infoPresent`, else only the last.
    /// - Parameters:
    ///   - entries: `maxSubLayersMinus1 + 1` entries.
    ///   - infoPresent: `…_sub_layer_ordering_info_present_flag`.
    ///   - writer: the destination.
    static func writeList(_ entries: [HEVCSubLayerOrderingInfo], infoPresent: Bool, to writer: inout BitWriter) {
        let coded = infoPresent ? entries[...] : entries.suffix(1)
        for entry in coded {
            writer.ue(entry.maxDecPicBufferingMinus1)
            writer.ue(entry.maxNumReorderPics)
            writer.ue(entry.maxLatencyIncreasePlus1)
        }
    }
}

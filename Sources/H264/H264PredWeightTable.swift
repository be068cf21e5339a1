import Bitstream

/// `pred_weight_table( )` of ITU-T H.264 §7.3.3.2: explicit weights and offsets for weighted
/// prediction.
public struct H264PredWeightTable: Sendable, Hashable {
    /// A weight and an offset.
    public struct WeightOffset: Sendable, Hashable {
        /// The weight, −128…127.
        public var weight: Int32
        /// The offset, −128…127 (scaled by 2^(BitDepth − 8) when applied).
        public var offset: Int32

        /// Creates a weight and offset.
        /// - Parameters:
        ///   - weight: the weight.
        ///   - offset: the offset.
        public init(weight: Int32, offset: Int32) {
            self.weight = weight
            self.offset = offset
        }
    }

    /// The weights of one reference index.
    public struct Entry: Sendable, Hashable {
        /// `luma_weight_lX` and `luma_offset_lX`, `nil` when `luma_weight_lX_flag` is 0.
        public var luma: WeightOffset?
        /// Cb and Cr weights and offsets, `nil` when `chroma_weight_lX_flag` is 0 or there is no chroma.
        public var chroma: [WeightOffset]?

        /// Creates an entry.
        /// - Parameters:
        ///   - luma: the luma weight, or `nil`.
        ///   - chroma: the Cb and Cr weights, or `nil`.
        public init(luma: WeightOffset? = nil, chroma: [WeightOffset]? = nil) {
            self.luma = luma
            self.chroma = chroma
        }
    }

    /// `luma_log2_weight_denom`, 0…7.
    public var lumaLog2WeightDenom: UInt32
    /// `chroma_log2_weight_denom`, 0…7; `nil` when `ChromaArrayType` is 0.
    public var chromaLog2WeightDenom: UInt32?
    /// One entry per list 0 reference index.
    public var list0: [Entry]
    /// One entry per list 1 reference index (B slices).
    public var list1: [Entry]

    /// Creates a table.
    /// - Parameters:
    ///   - lumaLog2WeightDenom: `luma_log2_weight_denom`.
    ///   - chromaLog2WeightDenom: `chroma_log2_weight_denom`, `nil` without chroma.
    ///   - list0: the list 0 entries.
    ///   - list1: the list 1 entries.
    public init(lumaLog2WeightDenom: UInt32, chromaLog2WeightDenom: UInt32?, list0: [Entry], list1: [Entry] = []) {
        self.lumaLog2WeightDenom = lumaLog2WeightDenom
        self.chromaLog2WeightDenom = chromaLog2WeightDenom
        self.list0 = list0
        self.list1 = list1
    }

    /// Reads `pred_weight_table( )` (ITU-T H.264 §7.3.3.2).
    /// - Parameters:
    ///   - reader: the RBSP reader.
    ///   - chromaArrayType: `ChromaArrayType` of the SPS.
    ///   - list0Count: `num_ref_idx_l0_active_minus1` + 1.
    ///   - list1Count: `num_ref_idx_l1_active_minus1` + 1 for B slices, 0 otherwise.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(from reader: inout BitReader, chromaArrayType: UInt32, list0Count: Int, list1Count: Int) throws(SyntaxError) {
        lumaLog2WeightDenom = try reader.ue("luma_log2_weight_denom", max: 7)
        chromaLog2WeightDenom = chromaArrayType != 0 ? try reader.ue("chroma_log2_weight_denom", max: 7) : nil
        list0 = try Self.readEntries(from: &reader, count: list0Count, hasChroma: chromaArrayType != 0)
        list1 = try Self.readEntries(from: &reader, count: list1Count, hasChroma: chromaArrayType != 0)
    }

    private static func readEntries(from reader: inout BitReader, count: Int, hasChroma: Bool) throws(SyntaxError) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            var entry = Entry()
            if try reader.flag("luma_weight_flag") {
                entry.luma = WeightOffset(weight: try reader.se("luma_weight", range: -128...127),
                                          offset: try reader.se("luma_offset", range: -128...127))
            }
            if hasChroma, try reader.flag("chroma_weight_flag") {
                var chroma: [WeightOffset] = []
                for _ in 0..<2 {
                    chroma.append(WeightOffset(weight: try reader.se("chroma_weight", range: -128...127),
                                               offset: try reader.se("chroma_offset", range: -128...127)))
                }
                entry.chroma = chroma
            }
            entries.append(entry)
        }
        return entries
    }

    /// Writes `pred_weight_table( )` (§7.3.3.2).
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        writer.ue(lumaLog2WeightDenom)
        if let chromaLog2WeightDenom { writer.ue(chromaLog2WeightDenom) }
        for entry in list0 + list1 {
            writer.flag(entry.luma != nil)
            if let luma = entry.luma {
                writer.se(luma.weight)
                writer.se(luma.offset)
            }
            if chromaLog2WeightDenom != nil {
                writer.flag(entry.chroma != nil)
                for pair in entry.chroma ?? [] {
                    writer.se(pair.weight)
                    writer.se(pair.offset)
                }
            }
        }
    }
}

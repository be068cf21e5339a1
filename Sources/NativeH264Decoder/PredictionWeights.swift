import H264

/// The weights of weighted sample prediction in one slice (§8.4.2.3): none (default: a copy, or the
/// rounded average of two predictions), explicit (`pred_weight_table( )`, §7.3.3.2, §7.4.3.2) or
/// implicit (B slices with `weighted_bipred_idc` 2: from the distances in picture order count).
struct PredictionWeights {
    /// How the slice weights its predictions.
    enum Mode {
        /// §8.4.2.3.1 default weighted sample prediction.
        case none
        /// §8.4.2.3.2 with the slice's `pred_weight_table( )`.
        case explicit
        /// §8.4.2.3.2 with weights from §8.4.3 (implicit mode, B slices).
        case implicit
    }

    /// One reference's weights and offsets for the three components.
    struct Entry {
        /// Luma weight, Cb weight, Cr weight.
        var weight: (Int, Int, Int)
        /// Luma offset, Cb offset, Cr offset (8-bit: as coded).
        var offset: (Int, Int, Int)
    }

    /// The mode.
    var mode = Mode.none
    /// `luma_log2_weight_denom` (explicit), 5 (implicit).
    var lumaLog2Denominator = 0
    /// `chroma_log2_weight_denom` (explicit), 5 (implicit).
    var chromaLog2Denominator = 0
    /// Explicit weights of list 0 by reference index.
    var list0: [Entry] = []
    /// Explicit weights of list 1 by reference index.
    var list1: [Entry] = []
    /// Implicit weight w0 by refIdxL0 · count1 + refIdxL1 (w1 = 64 − w0).
    var implicitWeights: [Int] = []
    /// `num_ref_idx_l1_active_minus1` + 1, the stride of ``implicitWeights``.
    var implicitStride = 0

    /// Whether the explicit weights of a reference index are the default ones (w = 2^logWD, o = 0 in every
    /// component, or no entry at all), which predict exactly as no weighting does.
    /// - Parameters:
    ///   - list: 0 or 1.
    ///   - ref: the reference index.
    /// - Returns: true for default weights.
    @inline(__always)
    func isDefault(list: Int, _ ref: Int) -> Bool {
        let entries = list == 0 ? list0 : list1
        guard ref >= 0, ref < entries.count else { return true }
        let entry = entries[ref], luma = 1 << lumaLog2Denominator, chroma = 1 << chromaLog2Denominator
        return entry.weight.0 == luma && entry.weight.1 == chroma && entry.weight.2 == chroma
            && entry.offset.0 == 0 && entry.offset.1 == 0 && entry.offset.2 == 0
    }

    /// The explicit entries of one list (§7.4.3.2, §8.4.2.3.2): a weight flag of 0 means 2^denominator and offset 0.
    static func entries(_ coded: [H264PredWeightTable.Entry], count: Int, lumaDenominator: Int, chromaDenominator: Int) -> [Entry] {
        (0..<count).map { index in
            var entry = Entry(weight: (1 << lumaDenominator, 1 << chromaDenominator, 1 << chromaDenominator), offset: (0, 0, 0))
            guard index < coded.count else { return entry }
            if let luma = coded[index].luma { entry.weight.0 = Int(luma.weight); entry.offset.0 = Int(luma.offset) }
            if let chroma = coded[index].chroma, chroma.count == 2 {
                entry.weight.1 = Int(chroma[0].weight); entry.offset.1 = Int(chroma[0].offset)
                entry.weight.2 = Int(chroma[1].weight); entry.offset.2 = Int(chroma[1].offset)
            }
            return entry
        }
    }

    /// The implicit weight w0 of a pair of references (§8.4.3): 32 (equal weights) when either is
    /// long-term, when both have the same picture order count or when DistScaleFactor >> 2 leaves
    /// −64…128; 64 − (DistScaleFactor >> 2) otherwise.
    static func implicitWeight(current: Int, _ picture0: DecoderPicture?, _ picture1: DecoderPicture?) -> Int {
        guard let picture0, let picture1, picture0.marking != .longTerm, picture1.marking != .longTerm else { return 32 }
        guard let scale = distScaleFactor(current: current, picture0.pictureOrderCount, picture1.pictureOrderCount) else { return 32 }
        let w1 = scale >> 2
        return w1 < -64 || w1 > 128 ? 32 : 64 - w1
    }

    /// `a` − `b` for picture order counts, on values clamped to 32 bits first: every valid one fits (§8.2.1), while a
    /// field never decoded holds `Int.max` and a hostile stream's may be anything, so no difference can overflow.
    @inline(__always)
    static func pocDifference(_ a: Int, _ b: Int) -> Int { Int(Int32(clamping: a)) - Int(Int32(clamping: b)) }

    /// DistScaleFactor (8-195…8-198, §8.4.1.2.3): `nil` when both pictures have the same picture order count.
    static func distScaleFactor(current: Int, _ poc0: Int, _ poc1: Int) -> Int? {
        let td = min(max(pocDifference(poc1, poc0), -128), 127)
        guard td != 0 else { return nil }
        let tb = min(max(pocDifference(current, poc0), -128), 127)
        let tx = (16384 + abs(td / 2)) / td
        return min(max((tb * tx + 32) >> 6, -1024), 1023)
    }
}

extension NativeH264Decoder {
    /// The weights of a slice (§8.4.2.3): explicit for P slices with `weighted_pred_flag` and B slices with
    /// `weighted_bipred_idc` 1, implicit for B slices with `weighted_bipred_idc` 2, none otherwise.
    func predictionWeights(_ context: inout SliceContext) -> PredictionWeights {
        var weights = PredictionWeights()
        if (context.isP && context.pps.weightedPredFlag) || (context.isB && context.pps.weightedBipredIDC == 1) {
            guard let table = context.header.predWeightTable else { return weights }
            weights.mode = .explicit
            let luma = Int(table.lumaLog2WeightDenom), chroma = Int(table.chromaLog2WeightDenom ?? 0)
            weights.lumaLog2Denominator = luma
            weights.chromaLog2Denominator = chroma
            weights.list0 = PredictionWeights.entries(table.list0, count: context.referenceCount, lumaDenominator: luma, chromaDenominator: chroma)
            if context.isB {
                weights.list1 = PredictionWeights.entries(table.list1, count: context.referenceCountL1, lumaDenominator: luma, chromaDenominator: chroma)
            }
        } else if context.isB && context.pps.weightedBipredIDC == 2 {
            weights.mode = .implicit
            weights.lumaLog2Denominator = 5
            weights.chromaLog2Denominator = 5
            weights.implicitStride = context.referenceList1.count
            let current = context.picture.pictureOrderCount
            weights.implicitWeights.reserveCapacity(context.referenceList.count * context.referenceList1.count)
            for picture0 in context.referenceList {
                for picture1 in context.referenceList1 {
                    weights.implicitWeights.append(PredictionWeights.implicitWeight(current: current, picture0, picture1))
                }
            }
        }
        return weights
    }
}

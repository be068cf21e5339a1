import Bitstream

/// `st_ref_pic_set( stRpsIdx )` of ITU-T H.265 §7.3.7: a short-term reference picture set, coded
/// explicitly or predicted from an earlier set (inter RPS prediction), with the derived lists of
/// §7.4.8 (equations 7-61 and 7-62).
public struct HEVCShortTermReferencePictureSet: Sendable, Hashable {
    /// A reference picture of the set: its POC distance to the current picture and whether the
    /// current picture uses it.
    public struct Picture: Sendable, Hashable {
        /// `DeltaPocS0[i]` (negative) or `DeltaPocS1[i]` (positive).
        public var deltaPOC: Int
        /// `UsedByCurrPicS0[i]` / `UsedByCurrPicS1[i]`.
        public var isUsedByCurrentPicture: Bool

        /// Creates a reference picture entry.
        /// - Parameters:
        ///   - deltaPOC: the POC difference to the current picture.
        ///   - isUsedByCurrentPicture: whether the current picture references it.
        public init(deltaPOC: Int, isUsedByCurrentPicture: Bool = true) {
            self.deltaPOC = deltaPOC
            self.isUsedByCurrentPicture = isUsedByCurrentPicture
        }
    }

    /// `inter_ref_pic_set_prediction_flag`.
    public var interRefPicSetPredictionFlag: Bool
    /// `delta_idx_minus1` (coded only in a slice header, when the set is predicted).
    public var deltaIdxMinus1: Int
    /// `delta_rps_sign` (predicted sets).
    public var deltaRPSSign: Bool
    /// `abs_delta_rps_minus1`, 0…2^15 − 1 (predicted sets).
    public var absDeltaRPSMinus1: Int
    /// `used_by_curr_pic_flag[j]`, `NumDeltaPocs[RefRpsIdx] + 1` of them (predicted sets).
    public var usedByCurrPicFlags: [Bool]
    /// `use_delta_flag[j]` (predicted sets; 1 where `used_by_curr_pic_flag` is 1, as inferred).
    public var useDeltaFlags: [Bool]
    /// `delta_poc_s0_minus1[i]`, 0…2^15 − 1 each (explicit sets).
    public var deltaPOCS0Minus1: [Int]
    /// `used_by_curr_pic_s0_flag[i]` (explicit sets).
    public var usedByCurrPicS0Flags: [Bool]
    /// `delta_poc_s1_minus1[i]`, 0…2^15 − 1 each (explicit sets).
    public var deltaPOCS1Minus1: [Int]
    /// `used_by_curr_pic_s1_flag[i]` (explicit sets).
    public var usedByCurrPicS1Flags: [Bool]

    /// The pictures before the current one in output order (`DeltaPocS0`, `UsedByCurrPicS0`), nearest first.
    public private(set) var negativePictures: [Picture]
    /// The pictures after the current one in output order (`DeltaPocS1`, `UsedByCurrPicS1`), nearest first.
    public private(set) var positivePictures: [Picture]

    /// `NumDeltaPocs`: the number of pictures in the set.
    public var numDeltaPOCs: Int { negativePictures.count + positivePictures.count }

    /// Creates an explicitly coded set.
    /// - Parameters:
    ///   - negativePictures: pictures with negative `deltaPOC`, nearest first (strictly decreasing).
    ///   - positivePictures: pictures with positive `deltaPOC`, nearest first (strictly increasing).
    public init(negativePictures: [Picture] = [], positivePictures: [Picture] = []) {
        interRefPicSetPredictionFlag = false
        deltaIdxMinus1 = 0
        deltaRPSSign = false
        absDeltaRPSMinus1 = 0
        usedByCurrPicFlags = []
        useDeltaFlags = []
        var previous = 0
        deltaPOCS0Minus1 = negativePictures.map { picture in
            defer { previous = picture.deltaPOC }
            return max(0, previous - picture.deltaPOC - 1)
        }
        previous = 0
        deltaPOCS1Minus1 = positivePictures.map { picture in
            defer { previous = picture.deltaPOC }
            return max(0, picture.deltaPOC - previous - 1)
        }
        usedByCurrPicS0Flags = negativePictures.map(\.isUsedByCurrentPicture)
        usedByCurrPicS1Flags = positivePictures.map(\.isUsedByCurrentPicture)
        self.negativePictures = negativePictures
        self.positivePictures = positivePictures
    }

    /// Creates a set predicted from an earlier one (inter RPS prediction, §7.4.8) and derives its lists.
    /// - Parameters:
    ///   - reference: the set predicted from (`RefRpsIdx`).
    ///   - deltaRPS: `deltaRps` = (1 − 2 × `delta_rps_sign`) × (`abs_delta_rps_minus1` + 1), ±1…±2^15.
    ///   - usedByCurrPicFlags: `used_by_curr_pic_flag[j]` for `j` = 0…`reference.numDeltaPOCs`.
    ///   - useDeltaFlags: `use_delta_flag[j]` (only read where `used_by_curr_pic_flag[j]` is 0).
    ///   - deltaIdxMinus1: `delta_idx_minus1` (for a set coded in a slice header).
    public init(predictingFrom reference: HEVCShortTermReferencePictureSet, deltaRPS: Int,
                usedByCurrPicFlags: [Bool], useDeltaFlags: [Bool], deltaIdxMinus1: Int = 0) {
        self.init()
        interRefPicSetPredictionFlag = true
        self.deltaIdxMinus1 = deltaIdxMinus1
        deltaRPSSign = deltaRPS < 0
        absDeltaRPSMinus1 = max(0, abs(deltaRPS) - 1)
        self.usedByCurrPicFlags = usedByCurrPicFlags
        self.useDeltaFlags = zip(usedByCurrPicFlags, useDeltaFlags).map { $0 || $1 }
        derivePictures(from: reference)
    }

    /// Parses `st_ref_pic_set( stRpsIdx )` (ITU-T H.265 §7.3.7) and derives its picture lists (§7.4.8).
    /// - Parameters:
    ///   - reader: the reader, positioned at the structure.
    ///   - index: `stRpsIdx`; equal to `earlierSets.count` … in an SPS, equal to
    ///     `num_short_term_ref_pic_sets` in a slice header.
    ///   - earlierSets: the sets of the SPS with a lower index (all of them for a slice header).
    ///   - setCount: `num_short_term_ref_pic_sets` of the SPS.
    ///   - maxDecPicBufferingMinus1: `sps_max_dec_pic_buffering_minus1[sps_max_sub_layers_minus1]`.
    /// - Throws: ``SyntaxError`` naming the element that ends early or is out of range.
    public init(from reader: inout BitReader, index: Int, earlierSets: [HEVCShortTermReferencePictureSet],
                setCount: Int, maxDecPicBufferingMinus1: Int) throws(SyntaxError) {
        self.init()
        if index != 0 {
            interRefPicSetPredictionFlag = try reader.flag("inter_ref_pic_set_prediction_flag")
        }
        if interRefPicSetPredictionFlag {
            if index == setCount {
                deltaIdxMinus1 = try reader.ueInt("delta_idx_minus1", range: 0...max(0, index - 1))
            }
            let referenceIndex = index - (deltaIdxMinus1 + 1)
            guard referenceIndex >= 0, referenceIndex < earlierSets.count else {
                throw SyntaxError(field: "delta_idx_minus1", bitOffset: reader.bitPosition,
                                  reason: .invalid("refers to set \(referenceIndex), which does not exist"))
            }
            let reference = earlierSets[referenceIndex]
            deltaRPSSign = try reader.flag("delta_rps_sign")
            absDeltaRPSMinus1 = try reader.ueInt("abs_delta_rps_minus1", range: 0...(1 << 15) - 1)
            for _ in 0...reference.numDeltaPOCs {
                let used = try reader.flag("used_by_curr_pic_flag")
                usedByCurrPicFlags.append(used)
                useDeltaFlags.append(used ? true : try reader.flag("use_delta_flag"))
            }
            derivePictures(from: reference)
        } else {
            let limit = max(0, maxDecPicBufferingMinus1)
            let negativeCount = try reader.ueInt("num_negative_pics", range: 0...limit)
            let positiveCount = try reader.ueInt("num_positive_pics", range: 0...(limit - negativeCount))
            for _ in 0..<negativeCount {
                deltaPOCS0Minus1.append(try reader.ueInt("delta_poc_s0_minus1", range: 0...(1 << 15) - 1))
                usedByCurrPicS0Flags.append(try reader.flag("used_by_curr_pic_s0_flag"))
            }
            for _ in 0..<positiveCount {
                deltaPOCS1Minus1.append(try reader.ueInt("delta_poc_s1_minus1", range: 0...(1 << 15) - 1))
                usedByCurrPicS1Flags.append(try reader.flag("used_by_curr_pic_s1_flag"))
            }
            deriveExplicitPictures()
        }
    }

    /// Computes the lists of an explicitly coded set (7-65 … 7-68).
    private mutating func deriveExplicitPictures() {
        var poc = 0
        negativePictures = zip(deltaPOCS0Minus1, usedByCurrPicS0Flags).map { minus1, used in
            poc -= minus1 + 1
            return Picture(deltaPOC: poc, isUsedByCurrentPicture: used)
        }
        poc = 0
        positivePictures = zip(deltaPOCS1Minus1, usedByCurrPicS1Flags).map { minus1, used in
            poc += minus1 + 1
            return Picture(deltaPOC: poc, isUsedByCurrentPicture: used)
        }
    }

    /// Computes the lists of a predicted set from its reference set (7-61, 7-62).
    private mutating func derivePictures(from reference: HEVCShortTermReferencePictureSet) {
        let deltaRPS = (deltaRPSSign ? -1 : 1) * (absDeltaRPSMinus1 + 1)
        let negatives = reference.negativePictures
        let positives = reference.positivePictures
        func flags(_ j: Int) -> (used: Bool, use: Bool) {
            guard j >= 0, j < usedByCurrPicFlags.count, j < useDeltaFlags.count else { return (false, false) }
            return (usedByCurrPicFlags[j], useDeltaFlags[j])
        }
        let own = flags(reference.numDeltaPOCs)
        var s0 = [Picture]()
        for (j, picture) in positives.enumerated().reversed() {
            let deltaPOC = picture.deltaPOC + deltaRPS
            let entry = flags(negatives.count + j)
            if deltaPOC < 0 && entry.use { s0.append(Picture(deltaPOC: deltaPOC, isUsedByCurrentPicture: entry.used)) }
        }
        if deltaRPS < 0 && own.use { s0.append(Picture(deltaPOC: deltaRPS, isUsedByCurrentPicture: own.used)) }
        for (j, picture) in negatives.enumerated() {
            let deltaPOC = picture.deltaPOC + deltaRPS
            let entry = flags(j)
            if deltaPOC < 0 && entry.use { s0.append(Picture(deltaPOC: deltaPOC, isUsedByCurrentPicture: entry.used)) }
        }
        var s1 = [Picture]()
        for (j, picture) in negatives.enumerated().reversed() {
            let deltaPOC = picture.deltaPOC + deltaRPS
            let entry = flags(j)
            if deltaPOC > 0 && entry.use { s1.append(Picture(deltaPOC: deltaPOC, isUsedByCurrentPicture: entry.used)) }
        }
        if deltaRPS > 0 && own.use { s1.append(Picture(deltaPOC: deltaRPS, isUsedByCurrentPicture: own.used)) }
        for (j, picture) in positives.enumerated() {
            let deltaPOC = picture.deltaPOC + deltaRPS
            let entry = flags(negatives.count + j)
            if deltaPOC > 0 && entry.use { s1.append(Picture(deltaPOC: deltaPOC, isUsedByCurrentPicture: entry.used)) }
        }
        negativePictures = s0
        positivePictures = s1
    }

    /// Writes `st_ref_pic_set( stRpsIdx )` (ITU-T H.265 §7.3.7) as coded.
    /// - Parameters:
    ///   - writer: the destination.
    ///   - index: `stRpsIdx`.
    ///   - setCount: `num_short_term_ref_pic_sets` of the SPS.
    public func write(to writer: inout BitWriter, index: Int, setCount: Int) {
        if index != 0 { writer.flag(interRefPicSetPredictionFlag) }
        if index != 0 && interRefPicSetPredictionFlag {
            if index == setCount { writer.ue(deltaIdxMinus1) }
            writer.flag(deltaRPSSign)
            writer.ue(absDeltaRPSMinus1)
            for (j, used) in usedByCurrPicFlags.enumerated() {
                writer.flag(used)
                if !used { writer.flag(j < useDeltaFlags.count ? useDeltaFlags[j] : true) }
            }
        } else {
            writer.ue(deltaPOCS0Minus1.count)
            writer.ue(deltaPOCS1Minus1.count)
            for (j, minus1) in deltaPOCS0Minus1.enumerated() {
                writer.ue(minus1)
                writer.flag(j < usedByCurrPicS0Flags.count ? usedByCurrPicS0Flags[j] : true)
            }
            for (j, minus1) in deltaPOCS1Minus1.enumerated() {
                writer.ue(minus1)
                writer.flag(j < usedByCurrPicS1Flags.count ? usedByCurrPicS1Flags[j] : true)
            }
        }
    }
}

/// Where things are in an MBAFF frame (MbaffFrameFlag 1): the one place that answers "which macroblock, and
/// which sample of it, is neighbour A, B, C or D of this macroblock, block or partition" for macroblock pairs.
///
/// In an MBAFF frame, macroblock addresses go pair by pair: pair `n` (raster order over a grid of
/// PicWidthInMbs × FrameHeightInMbs / 2 pairs, 16x32 luma samples each) holds the top macroblock `2n` and the
/// bottom macroblock `2n + 1`. A pair is coded either as two frame macroblocks (rows 0–15 and 16–31) or as two
/// field macroblocks (the top one the pair's even rows, the bottom one its odd rows), per
/// mb_field_decoding_flag (§7.4.4).
///
/// The decoder resolves each macroblock's neighbours through it (NativeH264Decoder+MBAFF.swift); pure functions,
/// no allocation.
struct MBAFFGeometry: Equatable {
    /// PicWidthInMbs.
    let widthInMbs: Int

    /// The top macroblock addresses of the pairs left (A), above (B), above right (C) and above left (D) of
    /// the pair holding `mbAddr` (§6.4.10: mbAddrA = 2·(CurrMbAddr / 2 − 1), mbAddrB = 2·(CurrMbAddr / 2 −
    /// PicWidthInMbs), mbAddrC = 2·(CurrMbAddr / 2 − PicWidthInMbs + 1), mbAddrD = 2·(CurrMbAddr / 2 −
    /// PicWidthInMbs − 1)), −1 for a pair outside the picture. Whether a pair inside it is available (decoded,
    /// in the same slice: §6.4.8) is the caller's to say.
    @inline(__always)
    func neighbourPairs(of mbAddr: Int) -> MBAFFNeighbourPairs {
        let pair = mbAddr >> 1
        let column = pair % widthInMbs
        let hasLeft = column > 0, hasRight = column < widthInMbs - 1, hasAbove = pair >= widthInMbs
        return MBAFFNeighbourPairs(a: hasLeft ? 2 * (pair - 1) : -1,
                                   b: hasAbove ? 2 * (pair - widthInMbs) : -1,
                                   c: hasAbove && hasRight ? 2 * (pair - widthInMbs + 1) : -1,
                                   d: hasAbove && hasLeft ? 2 * (pair - widthInMbs - 1) : -1)
    }

    /// The upper-left luma sample of macroblock `mbAddr` in the frame and the distance, in frame rows, between
    /// two of its rows (§6.4.1, MbaffFrameFlag 1: x = InverseRasterScan(mbAddr / 2, 16, 32, PicWidthInSamplesL,
    /// 0); y from the pair's top row, + 16 for a bottom frame macroblock, + 1 for a bottom field macroblock;
    /// rows 1 apart in a frame macroblock, 2 in a field one). Chroma (4:2:0): halve x and y of the pair's
    /// corner, the same parity offset and row step.
    @inline(__always)
    func lumaOrigin(of mbAddr: Int, isField: Bool) -> (x: Int, y: Int, rowStep: Int) {
        let pair = mbAddr >> 1, bottom = mbAddr & 1
        let x = (pair % widthInMbs) * 16, pairY = (pair / widthInMbs) * 32
        return isField ? (x, pairY + bottom, 2) : (x, pairY + bottom * 16, 1)
    }

    /// mb_field_decoding_flag of a pair for which neither macroblock carries it (§7.4.4): the left pair's when
    /// it is in the same slice, else the above pair's when it is, else 0 (frame). When only the bottom
    /// macroblock carries it (the top one skipped), the top one takes the bottom one's value (§7.4.4), which
    /// the slice data loop does by reading it before decoding the skipped top macroblock.
    @inline(__always)
    static func inferredFieldDecodingFlag(leftAvailable: Bool, leftIsField: Bool, aboveAvailable: Bool, aboveIsField: Bool) -> Bool {
        if leftAvailable { return leftIsField }
        if aboveAvailable { return aboveIsField }
        return false
    }

    /// ctxIdxInc of mb_field_decoding_flag (§9.3.3.1.1, ctxIdx 70 + 0…2): condTermFlagN is 1 when pair N
    /// (A: left, B: above, §6.4.10) is available and a field macroblock pair; ctxIdxInc = condTermFlagA +
    /// condTermFlagB.
    @inline(__always)
    static func fieldDecodingFlagContextIncrement(leftAvailable: Bool, leftIsField: Bool, aboveAvailable: Bool, aboveIsField: Bool) -> Int {
        (leftAvailable && leftIsField ? 1 : 0) + (aboveAvailable && aboveIsField ? 1 : 0)
    }

    /// The neighbouring location (xN, yN) of a partition or block (§6.4.11.7 for partitions, §6.4.11.4 for
    /// 4x4 blocks with width 4): A = (x − 1, y), B = (x, y − 1), C = (x + width, y − 1), D = (x − 1, y − 1),
    /// relative to the macroblock's upper-left sample; each then goes through ``locate(xN:yN:maxW:maxH:currentIsField:currentIsBottom:fieldPairs:)``.
    @inline(__always)
    static func partitionNeighbourLocations(x: Int, y: Int, width: Int)
        -> (a: (Int, Int), b: (Int, Int), c: (Int, Int), d: (Int, Int)) {
        ((x - 1, y), (x, y - 1), (x + width, y - 1), (x - 1, y - 1))
    }

    /// The macroblock covering the neighbouring location (xN, yN) of the current macroblock, and the location
    /// (xW, yW) inside it (§6.4.12.2, Table 6-4), or `nil` when the table says it is not available (below the
    /// macroblock, right of it, or above right of a bottom frame macroblock).
    ///
    /// - Parameters:
    ///   - xN: from −1 to maxW; yN: from −1 to maxH (luma: maxW = maxH = 16; 4:2:0 chroma: 8).
    ///   - currentIsField: the current macroblock is a field macroblock (currMbFrameFlag 0).
    ///   - currentIsBottom: the current macroblock is the bottom one of its pair (mbIsTopMbFlag 0).
    ///   - fieldPairs: which of the pairs A, B, C, D are field pairs (mbAddrXFrameFlag 0); the current pair's
    ///     coding is `currentIsField`.
    /// - Returns: the pair (``MBAFFNeighbourPair/current`` for the current pair), whether mbAddrN is its bottom
    ///   macroblock (mbAddrN = the pair's top address + 1), and (xW, yW) = (xN, yM) wrapped into the macroblock.
    ///
    /// Table 6-4 is what the geometry says: the neighbouring sample of a field macroblock is in the same field
    /// (rows two apart in the frame), and the sample found lies in the top or bottom macroblock of its pair by
    /// that pair's coding (frame: upper or lower half; field: row parity).
    @inline(__always)
    static func locate(xN: Int, yN: Int, maxW: Int, maxH: Int, currentIsField: Bool, currentIsBottom: Bool,
                       fieldPairs: MBAFFFieldPairs) -> MBAFFNeighbourLocation? {
        guard yN < maxH, xN < maxW || yN < 0 else { return nil }
        let pair: MBAFFNeighbourPair
        let bottom: Bool
        let yM: Int
        if xN < 0 {
            if yN < 0 {
                if !currentIsField {
                    if !currentIsBottom {
                        (pair, bottom, yM) = (.d, true, yN)
                    } else if fieldPairs.contains(.a) {
                        (pair, bottom, yM) = (.a, true, (yN + maxH) >> 1)
                    } else {
                        (pair, bottom, yM) = (.a, false, yN)
                    }
                } else if !currentIsBottom {
                    (pair, bottom, yM) = fieldPairs.contains(.d) ? (.d, false, yN) : (.d, true, 2 * yN)
                } else {
                    (pair, bottom, yM) = (.d, true, yN)
                }
            } else {
                let leftIsField = fieldPairs.contains(.a)
                switch (currentIsField, currentIsBottom, leftIsField) {
                case (false, false, false): (pair, bottom, yM) = (.a, false, yN)
                case (false, false, true): (pair, bottom, yM) = (.a, yN & 1 != 0, yN >> 1)
                case (false, true, false): (pair, bottom, yM) = (.a, true, yN)
                case (false, true, true): (pair, bottom, yM) = (.a, yN & 1 != 0, (yN + maxH) >> 1)
                case (true, false, false):
                    (pair, bottom, yM) = yN < maxH >> 1 ? (.a, false, yN << 1) : (.a, true, (yN << 1) - maxH)
                case (true, false, true): (pair, bottom, yM) = (.a, false, yN)
                case (true, true, false):
                    (pair, bottom, yM) = yN < maxH >> 1 ? (.a, false, (yN << 1) + 1) : (.a, true, (yN << 1) + 1 - maxH)
                case (true, true, true): (pair, bottom, yM) = (.a, true, yN)
                }
            }
        } else if xN < maxW {
            if yN >= 0 {
                (pair, bottom, yM) = (.current, currentIsBottom, yN)
            } else if !currentIsField {
                (pair, bottom, yM) = currentIsBottom ? (.current, false, yN) : (.b, true, yN)
            } else if !currentIsBottom {
                (pair, bottom, yM) = fieldPairs.contains(.b) ? (.b, false, yN) : (.b, true, 2 * yN)
            } else {
                (pair, bottom, yM) = (.b, true, yN)
            }
        } else {
            // xN > maxW − 1 and yN < 0.
            if !currentIsField {
                if currentIsBottom { return nil }
                (pair, bottom, yM) = (.c, true, yN)
            } else if !currentIsBottom {
                (pair, bottom, yM) = fieldPairs.contains(.c) ? (.c, false, yN) : (.c, true, 2 * yN)
            } else {
                (pair, bottom, yM) = (.c, true, yN)
            }
        }
        return MBAFFNeighbourLocation(pair: pair, isBottom: bottom, xW: (xN + maxW) % maxW, yW: (yM + maxH) % maxH)
    }
}

/// The top macroblock addresses of the four neighbouring pairs of an MBAFF frame (§6.4.10), −1 outside the picture.
struct MBAFFNeighbourPairs: Equatable {
    /// The pair to the left (mbAddrA).
    var a: Int
    /// The pair above (mbAddrB).
    var b: Int
    /// The pair above right (mbAddrC).
    var c: Int
    /// The pair above left (mbAddrD).
    var d: Int

    /// The top macroblock address of `pair`, given the current macroblock's address (−1 outside the picture).
    @inline(__always)
    func topAddress(of pair: MBAFFNeighbourPair, current mbAddr: Int) -> Int {
        switch pair {
        case .current: mbAddr & ~1
        case .a: a
        case .b: b
        case .c: c
        case .d: d
        }
    }
}

/// Which pair a neighbouring location of Table 6-4 falls in (mbAddrX).
enum MBAFFNeighbourPair: UInt8, Equatable {
    /// The current macroblock's own pair (CurrMbAddr, or its top macroblock CurrMbAddr − 1).
    case current
    /// The pair to the left (mbAddrA).
    case a
    /// The pair above (mbAddrB).
    case b
    /// The pair above right (mbAddrC).
    case c
    /// The pair above left (mbAddrD).
    case d
}

/// Which neighbouring pairs are field macroblock pairs (mbAddrXFrameFlag 0 in Table 6-4).
struct MBAFFFieldPairs: OptionSet, Equatable {
    let rawValue: UInt8
    /// The pair to the left (A) is a field pair.
    static let a = MBAFFFieldPairs(rawValue: 1)
    /// The pair above (B) is a field pair.
    static let b = MBAFFFieldPairs(rawValue: 2)
    /// The pair above right (C) is a field pair.
    static let c = MBAFFFieldPairs(rawValue: 4)
    /// The pair above left (D) is a field pair.
    static let d = MBAFFFieldPairs(rawValue: 8)
}

/// A neighbouring location resolved by Table 6-4 (§6.4.12.2): mbAddrN (a pair's top or bottom macroblock) and
/// the location (xW, yW) inside it.
struct MBAFFNeighbourLocation: Equatable {
    /// The pair holding mbAddrN.
    var pair: MBAFFNeighbourPair
    /// mbAddrN is the pair's bottom macroblock (its top address + 1).
    var isBottom: Bool
    /// xW.
    var xW: Int
    /// yW.
    var yW: Int
}

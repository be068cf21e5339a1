/// What the CABAC ctxIdxInc derivations (§9.3.3.1.1) need to know about macroblocks already decoded,
/// beyond the decoder's own per-macroblock tables: the skip flag, coded_block_pattern,
/// intra_chroma_pred_mode, the DC blocks' coded_block_flag, which parts were direct-predicted (B slices), and
/// the absolute motion vector differences of both lists per 4x4 block. Held in memory the decoder owns, grown when a larger picture
/// arrives, never per macroblock; the context variables live here too.
final class CABACNeighbourTables {
    /// The context variables of the slice being decoded (pStateIdx << 1 | valMPS).
    let states: UnsafeMutablePointer<UInt8>
    /// The engine's tables (``CABACEngineTables/packed``).
    let engineTables: UnsafeMutablePointer<UInt8>
    /// The ctxIdxInc of significant_coeff_flag (63 bytes) then of last_significant_coeff_flag (63) for 8x8
    /// blocks (Table 9-43).
    let increments8x8: UnsafeMutablePointer<UInt8>
    /// Macroblocks the tables hold.
    private(set) var capacity = 0
    /// Per macroblock: mb_skip_flag.
    var skip: UnsafeMutablePointer<UInt8>
    /// Per macroblock: CodedBlockPatternLuma | CodedBlockPatternChroma << 4 (I_PCM: 0x2F, skipped: 0).
    var cbp: UnsafeMutablePointer<UInt8>
    /// Per macroblock: intra_chroma_pred_mode (0 for inter and I_PCM macroblocks).
    var chromaMode: UnsafeMutablePointer<UInt8>
    /// Per macroblock: coded_block_flag of the Intra16x16 DC (bit 0), Cb DC (bit 1) and Cr DC (bit 2) blocks.
    var codedDC: UnsafeMutablePointer<UInt8>
    /// Per 4x4 block (16 per macroblock, raster order): |mvd_l0| horizontal, saturated at 255.
    var mvdX: UnsafeMutablePointer<UInt8>
    /// Per 4x4 block: |mvd_l0| vertical, saturated at 255.
    var mvdY: UnsafeMutablePointer<UInt8>
    /// Per 4x4 block: |mvd_l1| horizontal, saturated at 255.
    var mvdX1: UnsafeMutablePointer<UInt8>
    /// Per 4x4 block: |mvd_l1| vertical, saturated at 255.
    var mvdY1: UnsafeMutablePointer<UInt8>
    /// Per macroblock: the direct-predicted 8x8 sub-macroblocks (bits 0…3, B_Direct_8x8) and bit 4 for
    /// B_Skip and B_Direct_16x16 (which set bits 0…3 too); 0 for every other macroblock. The ctxIdxInc of
    /// mb_type (§9.3.3.1.1.3) and ref_idx (§9.3.3.1.1.6) in B slices read it.
    var direct: UnsafeMutablePointer<UInt8>

    /// Creates empty tables and the context storage.
    init() {
        states = .allocate(capacity: 1024)
        states.initialize(repeating: 0, count: 1024)
        let packed = CABACEngineTables.packed
        engineTables = .allocate(capacity: packed.count)
        engineTables.initialize(from: packed, count: packed.count)
        let increments = NativeH264Decoder.significance8x8 + NativeH264Decoder.last8x8
        increments8x8 = .allocate(capacity: increments.count)
        increments8x8.initialize(from: increments, count: increments.count)
        skip = .allocate(capacity: 1); cbp = .allocate(capacity: 1); chromaMode = .allocate(capacity: 1)
        codedDC = .allocate(capacity: 1); direct = .allocate(capacity: 1)
        mvdX = .allocate(capacity: 16); mvdY = .allocate(capacity: 16)
        mvdX1 = .allocate(capacity: 16); mvdY1 = .allocate(capacity: 16)
    }

    deinit {
        states.deallocate()
        engineTables.deallocate()
        increments8x8.deallocate()
        release()
    }

    private func release() {
        skip.deallocate(); cbp.deallocate(); chromaMode.deallocate(); codedDC.deallocate(); direct.deallocate()
        mvdX.deallocate(); mvdY.deallocate(); mvdX1.deallocate(); mvdY1.deallocate()
    }

    /// Makes room for `count` macroblocks (allocates only when the picture grew).
    /// - Parameter count: macroblocks in the picture.
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        release()
        func table(_ n: Int) -> UnsafeMutablePointer<UInt8> {
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
            pointer.initialize(repeating: 0, count: n)
            return pointer
        }
        skip = table(count); cbp = table(count); chromaMode = table(count); codedDC = table(count); direct = table(count)
        mvdX = table(count * 16); mvdY = table(count * 16); mvdX1 = table(count * 16); mvdY1 = table(count * 16)
        capacity = count
    }

    /// Records a macroblock with no motion vector differences (skipped, intra or I_PCM).
    /// - Parameters:
    ///   - mb: the macroblock address.
    ///   - skip: mb_skip_flag.
    ///   - cbp: its coded_block_pattern as held in ``cbp``.
    ///   - chromaMode: intra_chroma_pred_mode, 0 if none.
    ///   - codedDC: the DC blocks' coded_block_flag bits.
    ///   - direct: the direct-predicted parts as held in ``direct`` (0 unless a B macroblock).
    @inline(__always)
    func record(_ mb: Int, skip: Bool, cbp: Int, chromaMode: Int, codedDC: Int, direct: Int = 0) {
        self.direct[mb] = UInt8(truncatingIfNeeded: direct)
        self.skip[mb] = skip ? 1 : 0
        self.cbp[mb] = UInt8(truncatingIfNeeded: cbp)
        self.chromaMode[mb] = UInt8(truncatingIfNeeded: chromaMode)
        self.codedDC[mb] = UInt8(truncatingIfNeeded: codedDC)
    }

    /// Zeroes the motion vector differences of both lists of a macroblock (skipped and intra macroblocks, and
    /// B macroblocks before their differences are decoded: direct and unused parts keep 0).
    /// - Parameter mb: the macroblock address.
    @inline(__always)
    func clearMotionDifferences(_ mb: Int) {
        (mvdX + mb * 16).update(repeating: 0, count: 16)
        (mvdY + mb * 16).update(repeating: 0, count: 16)
        (mvdX1 + mb * 16).update(repeating: 0, count: 16)
        (mvdY1 + mb * 16).update(repeating: 0, count: 16)
    }
}

extension SliceCoder {
    /// refIdxL0 and mvL0 of a neighbouring macroblock for motion vector prediction (§8.4.1.3.2):
    /// nil when it is outside the picture; refIdx −1 and a zero vector when it is intra.
    func neighbourMotion(mbX: Int, mbY: Int) -> (refIdx: Int, mv: SIMD2<Int32>)? {
        guard mbX >= 0, mbY >= 0, mbX < widthInMbs else { return nil }
        let index = mbY * widthInMbs + mbX
        if macroblockIsIntra[index] { return (-1, .zero) }
        return (0, motionVectors[index])
    }

    /// mvpL0 of a 16x16 partition with refIdxL0 0 (§8.4.1.3): neighbours A (left), B (above) and C
    /// (above right, D above left when C is outside), the single matching neighbour's vector or the
    /// component-wise median.
    func motionVectorPredictor(mbX: Int, mbY: Int) -> SIMD2<Int32> {
        let a = neighbourMotion(mbX: mbX - 1, mbY: mbY)
        var b = neighbourMotion(mbX: mbX, mbY: mbY - 1)
        var c = neighbourMotion(mbX: mbX + 1, mbY: mbY - 1) ?? neighbourMotion(mbX: mbX - 1, mbY: mbY - 1)
        // §8.4.1.3.1: B and C both not available and A available → both take A.
        if b == nil && c == nil, let a { b = a; c = a }
        let unavailable: (refIdx: Int, mv: SIMD2<Int32>) = (-1, .zero)
        let na = a ?? unavailable, nb = b ?? unavailable, nc = c ?? unavailable
        let matching = [na, nb, nc].filter { $0.refIdx == 0 }
        if matching.count == 1 { return matching[0].mv }
        func median(_ x: Int32, _ y: Int32, _ z: Int32) -> Int32 { max(min(x, y), min(max(x, y), z)) }
        return SIMD2(median(na.mv.x, nb.mv.x, nc.mv.x), median(na.mv.y, nb.mv.y, nc.mv.y))
    }

    /// mvL0 of a P_Skip macroblock (§8.4.1.1): zero when A or B is outside the picture or either has
    /// refIdxL0 0 with a zero vector, the 16x16 predictor otherwise.
    func skipMotionVector(mbX: Int, mbY: Int, predictor: SIMD2<Int32>) -> SIMD2<Int32> {
        guard let a = neighbourMotion(mbX: mbX - 1, mbY: mbY), let b = neighbourMotion(mbX: mbX, mbY: mbY - 1) else { return .zero }
        if (a.refIdx == 0 && a.mv == .zero) || (b.refIdx == 0 && b.mv == .zero) { return .zero }
        return predictor
    }

    /// Bits of se(v) for `value` (§9.1.1: codeNum 2|v| − (v > 0), 2·⌊log2(codeNum + 1)⌋ + 1 bits).
    static func signedGolombBits(_ value: Int32) -> Int {
        let codeNum = value > 0 ? 2 * Int(value) - 1 : -2 * Int(value)
        return 2 * (Int.bitWidth - 1 - (codeNum + 1).leadingZeroBitCount) + 1
    }
}

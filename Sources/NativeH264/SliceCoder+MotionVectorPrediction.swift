import NativeH264Kernels

/// The shape of an inter macroblock's partitions (Table 7-13: P_L0_16x16, P_L0_L0_16x8, P_L0_L0_8x16,
/// and P_8x8 with every sub_mb_type P_L0_8x8, Table 7-17).
enum PartitionShape: Int, CaseIterable {
    case whole = 0, horizontalHalves = 1, verticalHalves = 2, quarters = 3

    /// The block size of its partitions.
    var blockSize: BlockSize {
        switch self {
        case .whole: .w16h16
        case .horizontalHalves: .w16h8
        case .verticalHalves: .w8h16
        case .quarters: .w8h8
        }
    }

    /// (x, y, width, height) of each partition inside the macroblock, in luma samples.
    var partitions: [(Int, Int, Int, Int)] { Self.partitionTable[rawValue] }

    /// The partitions of each shape, built once (a shared array: reading it allocates nothing).
    static let partitionTable: [[(Int, Int, Int, Int)]] = [
        [(0, 0, 16, 16)],
        [(0, 0, 16, 8), (0, 8, 16, 8)],
        [(0, 0, 8, 16), (8, 0, 8, 16)],
        [(0, 0, 8, 8), (8, 0, 8, 8), (0, 8, 8, 8), (8, 8, 8, 8)],
    ]
}

extension SliceCoder {
    /// refIdxL0 and mvL0 of the 4x4 block covering luma location (x, y) relative to macroblock
    /// (mbX, mbY) (§6.4.11.7, §8.4.1.3.2): nil when its macroblock is outside the picture or the slice,
    /// or not yet decoded (a block of the current macroblock counts as decoded only when `insideDecoded`); refIdx −1
    /// and a zero vector for an intra macroblock.
    func neighbourMotion(mbX: Int, mbY: Int, x: Int, y: Int, insideDecoded: Bool = false) -> (refIdx: Int, mv: SIMD2<Int32>)? {
        let px = mbX * 16 + x, py = mbY * 16 + y
        guard px >= 0, py >= 0, px < widthInMbs * 16, py < heightInMbs * 16 else { return nil }
        let nx = px >> 4, ny = py >> 4
        if nx == mbX && ny == mbY {
            if !insideDecoded { return nil }
        } else if !(ny < mbY || (ny == mbY && nx < mbX)) || ny * widthInMbs + nx < sliceStart {
            return nil
        }
        if macroblockIsIntra[ny * widthInMbs + nx] && !(nx == mbX && ny == mbY) { return (-1, .zero) }
        return (0, motionVectors[(py >> 2) * widthInMbs * 4 + (px >> 2)])
    }

    /// mvpL0 of a partition with refIdxL0 0 (§8.4.1.3): neighbours A (left), B (above), C (above
    /// right, D above left when C is not available); the directional rules of 16x8 and 8x16
    /// (§8.4.1.3, 8-203 … 8-206), else the single matching neighbour's vector or the median.
    func motionVectorPredictor(mbX: Int, mbY: Int, shape: PartitionShape = .whole, partition: Int = 0) -> SIMD2<Int32> {
        let (x, y, w, _) = shape.partitions[partition]
        let inside = partition > 0
        let a = neighbourMotion(mbX: mbX, mbY: mbY, x: x - 1, y: y, insideDecoded: inside)
        var b = neighbourMotion(mbX: mbX, mbY: mbY, x: x, y: y - 1, insideDecoded: inside)
        var c = neighbourMotion(mbX: mbX, mbY: mbY, x: x + w, y: y - 1, insideDecoded: inside)
            ?? neighbourMotion(mbX: mbX, mbY: mbY, x: x - 1, y: y - 1, insideDecoded: inside)
        // §8.4.1.3.1: B and C both not available and A available → both take A.
        if b == nil && c == nil, let a { b = a; c = a }
        let unavailable: (refIdx: Int, mv: SIMD2<Int32>) = (-1, .zero)
        let na = a ?? unavailable, nb = b ?? unavailable, nc = c ?? unavailable
        switch (shape, partition) {
        case (.horizontalHalves, 0) where nb.refIdx == 0: return nb.mv
        case (.horizontalHalves, 1) where na.refIdx == 0: return na.mv
        case (.verticalHalves, 0) where na.refIdx == 0: return na.mv
        case (.verticalHalves, 1) where nc.refIdx == 0: return nc.mv
        default: break
        }
        // §8.4.1.3.1: exactly one of A, B, C with refIdxL0 0 → its vector (counted without an array).
        let matching = (na.refIdx == 0 ? 1 : 0) + (nb.refIdx == 0 ? 1 : 0) + (nc.refIdx == 0 ? 1 : 0)
        if matching == 1 { return na.refIdx == 0 ? na.mv : (nb.refIdx == 0 ? nb.mv : nc.mv) }
        func median(_ x: Int32, _ y: Int32, _ z: Int32) -> Int32 { max(min(x, y), min(max(x, y), z)) }
        return SIMD2(median(na.mv.x, nb.mv.x, nc.mv.x), median(na.mv.y, nb.mv.y, nc.mv.y))
    }

    /// mvL0 of a P_Skip macroblock (§8.4.1.1): zero when A or B is not available (outside the picture or the slice) or either has
    /// refIdxL0 0 with a zero vector, the 16x16 predictor otherwise.
    func skipMotionVector(mbX: Int, mbY: Int, predictor: SIMD2<Int32>) -> SIMD2<Int32> {
        guard let a = neighbourMotion(mbX: mbX, mbY: mbY, x: -1, y: 0), let b = neighbourMotion(mbX: mbX, mbY: mbY, x: 0, y: -1) else { return .zero }
        if (a.refIdx == 0 && a.mv == .zero) || (b.refIdx == 0 && b.mv == .zero) { return .zero }
        return predictor
    }

    /// Sets mvL0 of the 4x4 blocks of a partition.
    mutating func setMotion(_ mv: SIMD2<Int32>, mbX: Int, mbY: Int, x: Int, y: Int, width: Int, height: Int) {
        let stride = widthInMbs * 4
        for by in 0..<(height / 4) {
            for bx in 0..<(width / 4) { motionVectors[(mbY * 4 + y / 4 + by) * stride + mbX * 4 + x / 4 + bx] = mv }
        }
    }

    /// Bits of se(v) for `value` (§9.1.1: codeNum 2|v| − (v > 0), 2·⌊log2(codeNum + 1)⌋ + 1 bits).
    static func signedGolombBits(_ value: Int32) -> Int {
        let codeNum = value > 0 ? 2 * Int(value) - 1 : -2 * Int(value)
        return 2 * (Int.bitWidth - 1 - (codeNum + 1).leadingZeroBitCount) + 1
    }
}

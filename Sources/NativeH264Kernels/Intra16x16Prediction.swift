/// Intra_16x16 luma prediction modes (§8.3.3, Table 8-4).
public enum Intra16x16Mode: Int, CaseIterable, Sendable {
    /// Intra_16x16_Vertical (needs the top row).
    case vertical = 0
    /// Intra_16x16_Horizontal (needs the left column).
    case horizontal = 1
    /// Intra_16x16_DC (works with any neighbours).
    case dc = 2
    /// Intra_16x16_Plane (needs top, left and top-left).
    case plane = 3

    /// Whether the mode may be used with these neighbours (§8.3.3.1 … 8.3.3.4).
    /// - Parameter neighbours: what is available.
    /// - Returns: true when every sample the mode reads is available.
    public func isUsable(with neighbours: IntraNeighbours) -> Bool {
        switch self {
        case .vertical: neighbours.contains(.top)
        case .horizontal: neighbours.contains(.left)
        case .dc: true
        case .plane: neighbours.isSuperset(of: [.top, .left, .topLeft])
        }
    }
}

/// Intra_16x16 luma prediction (§8.3.3): a 16x16 block predicted from the reconstructed (not yet
/// deblocked) samples above and left of the macroblock.
public enum Intra16x16Prediction {
    /// The plain version, each sample as §8.3.3.1 … 8.3.3.4 write it.
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`).
    ///   - plane: the picture being reconstructed.
    ///   - x: the macroblock's left column in the plane.
    ///   - y: the macroblock's top row.
    ///   - neighbours: which neighbours are available.
    ///   - destination: receives the 16x16 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func reference(_ mode: Intra16x16Mode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                                 into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(mode.isUsable(with: neighbours), "Intra16x16Prediction: \(mode) needs unavailable neighbours")
        func p(_ px: Int, _ py: Int) -> Int { Int(plane.base[(y + py) * plane.stride + x + px]) }
        for yy in 0..<16 {
            for xx in 0..<16 {
                let value: Int
                switch mode {
                case .vertical: value = p(xx, -1)
                case .horizontal: value = p(-1, yy)
                case .dc:
                    let top = (0..<16).reduce(0) { $0 + p($1, -1) }, left = (0..<16).reduce(0) { $0 + p(-1, $1) }
                    switch (neighbours.contains(.top), neighbours.contains(.left)) {
                    case (true, true): value = (top + left + 16) >> 5
                    case (false, true): value = (left + 8) >> 4
                    case (true, false): value = (top + 8) >> 4
                    case (false, false): value = 128
                    }
                case .plane:
                    var h = 0, v = 0
                    for i in 0...7 {
                        h += (i + 1) * (p(8 + i, -1) - p(6 - i, -1))
                        v += (i + 1) * (p(-1, 8 + i) - p(-1, 6 - i))
                    }
                    let a = 16 * (p(-1, 15) + p(15, -1)), b = (5 * h + 32) >> 6, c = (5 * v + 32) >> 6
                    value = Int(clip1((a + b * (xx - 7) + c * (yy - 7) + 16) >> 5))
                }
                destination[yy * destinationStride + xx] = UInt8(value)
            }
        }
    }

    /// The fast version: row copies and fills, the plane computed incrementally.
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`).
    ///   - plane: the picture being reconstructed.
    ///   - x: the macroblock's left column in the plane.
    ///   - y: the macroblock's top row.
    ///   - neighbours: which neighbours are available.
    ///   - destination: receives the 16x16 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func fast(_ mode: Intra16x16Mode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                            into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(mode.isUsable(with: neighbours), "Intra16x16Prediction: \(mode) needs unavailable neighbours")
        let s = plane.stride
        let origin = plane.base + y * s + x
        let top = origin - s
        switch mode {
        case .vertical:
            for r in 0..<16 { (destination + r * destinationStride).update(from: top, count: 16) }
        case .horizontal:
            for r in 0..<16 { (destination + r * destinationStride).update(repeating: origin[r * s - 1], count: 16) }
        case .dc:
            var sum = 0, count = 0
            if neighbours.contains(.top) { for i in 0..<16 { sum &+= Int(top[i]) }; count &+= 16 }
            if neighbours.contains(.left) { for i in 0..<16 { sum &+= Int(origin[i * s - 1]) }; count &+= 16 }
            let value = count == 0 ? 128 : (count == 32 ? (sum + 16) >> 5 : (sum + 8) >> 4)
            for r in 0..<16 { (destination + r * destinationStride).update(repeating: UInt8(value), count: 16) }
        case .plane:
            var h = 0, v = 0
            for i in 0...7 {
                h &+= (i &+ 1) &* (Int(top[8 + i]) &- Int(top[6 - i]))
                v &+= (i &+ 1) &* (Int(origin[(8 + i) * s - 1]) &- Int(origin[(6 - i) * s - 1]))
            }
            let a = 16 &* (Int(origin[15 * s - 1]) &+ Int(top[15]))
            let b = (5 &* h &+ 32) >> 6, c = (5 &* v &+ 32) >> 6
            // A row of 16 values at once: rowStart + b·i, then the next row c further on; Clip1 by lanes.
            let ramp = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) &* Int32(truncatingIfNeeded: b)
            var row = SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: a &- 7 &* b &- 7 &* c &+ 16)) &+ ramp
            let step = SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: c))
            for r in 0..<16 {
                let clipped = pointwiseMin(pointwiseMax(row &>> 5, SIMD16<Int32>.zero), SIMD16<Int32>(repeating: 255))
                UnsafeMutableRawPointer(destination + r * destinationStride).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: clipped),
                                                                                     as: SIMD16<UInt8>.self)
                row &+= step
            }
        }
    }
}

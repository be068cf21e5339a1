/// Intra_8x8 luma prediction (§8.3.2.2) of one 8x8 block: the reference samples p[−1, −1],
/// p[0…15, −1] and p[−1, 0…7] are read from the plane, filtered (§8.3.2.2.1), then predicted with one of
/// the nine modes of Table 8-3, which carry the numbers and names of the Intra_4x4 modes (``Intra4x4Mode``).
public enum Intra8x8Prediction {
    /// Predicts one 8x8 block.
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`: ``Intra4x4Mode/isUsable(with:)``).
    ///   - plane: the picture being reconstructed.
    ///   - x: the block's left column in the plane.
    ///   - y: the block's top row.
    ///   - neighbours: which neighbours are available (`.topRight` for p[8…15, −1]).
    ///   - destination: receives the 8x8 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    @inlinable
    public static func predict(_ mode: Intra4x4Mode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                               into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 25) { buffer in
            let edge = buffer.baseAddress!
            filteredReferences(plane: plane, x: x, y: y, neighbours: neighbours, into: edge)
            predict(mode, edge: edge, neighbours: neighbours, into: destination, stride: destinationStride)
        }
    }

    /// The reference sample filtering (§8.3.2.2.1, 8-78 … 8-92) into `edge`: p′[−1, y] at `edge[7 − y]`
    /// (y = −1 at index 8) and p′[x, −1] at `edge[9 + x]`; p[8…15, −1] are p[7, −1] without the top right.
    @inlinable
    static func filteredReferences(plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours, into edge: UnsafeMutablePointer<Int>) {
        let hasTop = neighbours.contains(.top), hasLeft = neighbours.contains(.left), hasCorner = neighbours.contains(.topLeft)
        let stride = plane.stride
        let origin = plane.base + y * stride + x
        var top = InlineArray<16, Int>(repeating: 0)
        var left = InlineArray<8, Int>(repeating: 0)
        let corner = hasCorner ? Int(origin[-stride - 1]) : 0
        if hasTop {
            for i in 0..<8 { top[i] = Int(origin[-stride + i]) }
            if neighbours.contains(.topRight) {
                for i in 8..<16 { top[i] = Int(origin[-stride + i]) }
            } else {
                for i in 8..<16 { top[i] = top[7] }
            }
            edge[9] = hasCorner ? (corner + 2 * top[0] + top[1] + 2) >> 2 : (3 * top[0] + top[1] + 2) >> 2
            for i in 1..<15 { edge[9 + i] = (top[i - 1] + 2 * top[i] + top[i + 1] + 2) >> 2 }
            edge[24] = (top[14] + 3 * top[15] + 2) >> 2
        }
        if hasLeft {
            for i in 0..<8 { left[i] = Int(origin[i * stride - 1]) }
            edge[7] = hasCorner ? (corner + 2 * left[0] + left[1] + 2) >> 2 : (3 * left[0] + left[1] + 2) >> 2
            for i in 1..<7 { edge[7 - i] = (left[i - 1] + 2 * left[i] + left[i + 1] + 2) >> 2 }
            edge[0] = (left[6] + 3 * left[7] + 2) >> 2
        }
        if hasCorner {
            if hasTop && hasLeft {
                edge[8] = (top[0] + 2 * corner + left[0] + 2) >> 2
            } else if hasTop {
                edge[8] = (3 * corner + top[0] + 2) >> 2
            } else if hasLeft {
                edge[8] = (3 * corner + left[0] + 2) >> 2
            } else {
                edge[8] = corner
            }
        }
    }

    /// The nine modes of §8.3.2.2.2 … 8.3.2.2.10 over filtered reference samples.
    @inlinable
    static func predict(_ mode: Intra4x4Mode, edge e: UnsafeMutablePointer<Int>, neighbours: IntraNeighbours,
                        into out: UnsafeMutablePointer<UInt8>, stride os: Int) {
        @inline(__always) func t(_ i: Int) -> Int { e[9 + i] }      // p′[i, −1], i ≥ −1
        @inline(__always) func l(_ i: Int) -> Int { e[7 - i] }      // p′[−1, i], i ≥ −1
        @inline(__always) func put(_ x: Int, _ y: Int, _ v: Int) { out[y * os + x] = UInt8(truncatingIfNeeded: v) }
        switch mode {
        case .vertical:
            for y in 0..<8 { for x in 0..<8 { put(x, y, t(x)) } }
        case .horizontal:
            for y in 0..<8 { for x in 0..<8 { put(x, y, l(y)) } }
        case .dc:
            let hasTop = neighbours.contains(.top), hasLeft = neighbours.contains(.left)
            var sum = 0
            for i in 0..<8 { sum += (hasTop ? t(i) : 0) + (hasLeft ? l(i) : 0) }
            let value = hasTop && hasLeft ? (sum + 8) >> 4 : (hasTop || hasLeft ? (sum + 4) >> 3 : 128)
            for y in 0..<8 { for x in 0..<8 { put(x, y, value) } }
        case .diagonalDownLeft:
            for y in 0..<8 {
                for x in 0..<8 {
                    put(x, y, x == 7 && y == 7 ? (t(14) + 3 * t(15) + 2) >> 2 : (t(x + y) + 2 * t(x + y + 1) + t(x + y + 2) + 2) >> 2)
                }
            }
        case .diagonalDownRight:
            for y in 0..<8 {
                for x in 0..<8 {
                    if x > y { put(x, y, (t(x - y - 2) + 2 * t(x - y - 1) + t(x - y) + 2) >> 2) }
                    else if x < y { put(x, y, (l(y - x - 2) + 2 * l(y - x - 1) + l(y - x) + 2) >> 2) }
                    else { put(x, y, (t(0) + 2 * t(-1) + l(0) + 2) >> 2) }
                }
            }
        case .verticalRight:
            for y in 0..<8 {
                for x in 0..<8 {
                    let z = 2 * x - y, k = x - (y >> 1)
                    if z >= 0 && z & 1 == 0 { put(x, y, (t(k - 1) + t(k) + 1) >> 1) }
                    else if z >= 0 { put(x, y, (t(k - 2) + 2 * t(k - 1) + t(k) + 2) >> 2) }
                    else if z == -1 { put(x, y, (l(0) + 2 * l(-1) + t(0) + 2) >> 2) }
                    else { put(x, y, (l(y - 2 * x - 1) + 2 * l(y - 2 * x - 2) + l(y - 2 * x - 3) + 2) >> 2) }
                }
            }
        case .horizontalDown:
            for y in 0..<8 {
                for x in 0..<8 {
                    let z = 2 * y - x, k = y - (x >> 1)
                    if z >= 0 && z & 1 == 0 { put(x, y, (l(k - 1) + l(k) + 1) >> 1) }
                    else if z >= 0 { put(x, y, (l(k - 2) + 2 * l(k - 1) + l(k) + 2) >> 2) }
                    else if z == -1 { put(x, y, (l(0) + 2 * l(-1) + t(0) + 2) >> 2) }
                    else { put(x, y, (t(x - 2 * y - 1) + 2 * t(x - 2 * y - 2) + t(x - 2 * y - 3) + 2) >> 2) }
                }
            }
        case .verticalLeft:
            for y in 0..<8 {
                for x in 0..<8 {
                    let k = x + (y >> 1)
                    put(x, y, y & 1 == 0 ? (t(k) + t(k + 1) + 1) >> 1 : (t(k) + 2 * t(k + 1) + t(k + 2) + 2) >> 2)
                }
            }
        case .horizontalUp:
            for y in 0..<8 {
                for x in 0..<8 {
                    let z = x + 2 * y, k = y + (x >> 1)
                    if z > 13 { put(x, y, l(7)) }
                    else if z == 13 { put(x, y, (l(6) + 3 * l(7) + 2) >> 2) }
                    else if z & 1 == 0 { put(x, y, (l(k) + l(k + 1) + 1) >> 1) }
                    else { put(x, y, (l(k) + 2 * l(k + 1) + l(k + 2) + 2) >> 2) }
                }
            }
        }
    }
}

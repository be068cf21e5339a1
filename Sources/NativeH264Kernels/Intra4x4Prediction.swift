/// Intra_4x4 luma prediction modes (§8.3.1.2, Table 8-2).
public enum Intra4x4Mode: Int, CaseIterable, Sendable {
    /// Intra_4x4_Vertical.
    case vertical = 0
    /// Intra_4x4_Horizontal.
    case horizontal = 1
    /// Intra_4x4_DC.
    case dc = 2
    /// Intra_4x4_Diagonal_Down_Left.
    case diagonalDownLeft = 3
    /// Intra_4x4_Diagonal_Down_Right.
    case diagonalDownRight = 4
    /// Intra_4x4_Vertical_Right.
    case verticalRight = 5
    /// Intra_4x4_Horizontal_Down.
    case horizontalDown = 6
    /// Intra_4x4_Vertical_Left.
    case verticalLeft = 7
    /// Intra_4x4_Horizontal_Up.
    case horizontalUp = 8

    /// Whether the mode may be used with these neighbours (§8.3.1.2.1 … 8.3.1.2.9). The top-right
    /// samples are never required: when absent and the top row is present, p[3, −1] stands in for them.
    /// - Parameter neighbours: what is available.
    /// - Returns: true when every sample the mode reads is available.
    public func isUsable(with neighbours: IntraNeighbours) -> Bool {
        switch self {
        case .vertical, .diagonalDownLeft, .verticalLeft: neighbours.contains(.top)
        case .horizontal, .horizontalUp: neighbours.contains(.left)
        case .dc: true
        case .diagonalDownRight, .verticalRight, .horizontalDown: neighbours.isSuperset(of: [.top, .left, .topLeft])
        }
    }
}

/// Intra_4x4 luma prediction (§8.3.1.2) of one 4x4 block from the reconstructed samples p[−1, −1],
/// p[0…7, −1] and p[−1, 0…3].
public enum Intra4x4Prediction {
    /// The plain version: samples read from the plane as §8.3.1.2 names them (with the top-right
    /// substitution: p[4…7, −1] := p[3, −1] when not available), each mode's equations as written.
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`).
    ///   - plane: the picture being reconstructed.
    ///   - x: the block's left column in the plane.
    ///   - y: the block's top row.
    ///   - neighbours: which neighbours are available (`.topRight` for p[4…7, −1]).
    ///   - destination: receives the 4x4 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func reference(_ mode: Intra4x4Mode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                                 into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(mode.isUsable(with: neighbours), "Intra4x4Prediction: \(mode) needs unavailable neighbours")
        func p(_ px: Int, _ py: Int) -> Int {
            if py == -1 && px > 3 && !neighbours.contains(.topRight) { return Int(plane.base[(y - 1) * plane.stride + x + 3]) }
            return Int(plane.base[(y + py) * plane.stride + x + px])
        }
        let hasTop = neighbours.contains(.top), hasLeft = neighbours.contains(.left)
        for yy in 0..<4 {
            for xx in 0..<4 {
                let value: Int
                switch mode {
                case .vertical: value = p(xx, -1)
                case .horizontal: value = p(-1, yy)
                case .dc:
                    let top = p(0, -1) + p(1, -1) + p(2, -1) + p(3, -1), left = p(-1, 0) + p(-1, 1) + p(-1, 2) + p(-1, 3)
                    value = hasTop && hasLeft ? (top + left + 4) >> 3
                        : (hasLeft ? (left + 2) >> 2 : (hasTop ? (top + 2) >> 2 : 128))
                case .diagonalDownLeft:
                    value = xx == 3 && yy == 3 ? (p(6, -1) + 3 * p(7, -1) + 2) >> 2
                        : (p(xx + yy, -1) + 2 * p(xx + yy + 1, -1) + p(xx + yy + 2, -1) + 2) >> 2
                case .diagonalDownRight:
                    if xx > yy {
                        value = (p(xx - yy - 2, -1) + 2 * p(xx - yy - 1, -1) + p(xx - yy, -1) + 2) >> 2
                    } else if xx < yy {
                        value = (p(-1, yy - xx - 2) + 2 * p(-1, yy - xx - 1) + p(-1, yy - xx) + 2) >> 2
                    } else {
                        value = (p(0, -1) + 2 * p(-1, -1) + p(-1, 0) + 2) >> 2
                    }
                case .verticalRight:
                    let z = 2 * xx - yy
                    if z >= 0 && z % 2 == 0 {
                        value = (p(xx - (yy >> 1) - 1, -1) + p(xx - (yy >> 1), -1) + 1) >> 1
                    } else if z >= 0 {
                        value = (p(xx - (yy >> 1) - 2, -1) + 2 * p(xx - (yy >> 1) - 1, -1) + p(xx - (yy >> 1), -1) + 2) >> 2
                    } else if z == -1 {
                        value = (p(-1, 0) + 2 * p(-1, -1) + p(0, -1) + 2) >> 2
                    } else {
                        value = (p(-1, yy - 1) + 2 * p(-1, yy - 2) + p(-1, yy - 3) + 2) >> 2
                    }
                case .horizontalDown:
                    let z = 2 * yy - xx
                    if z >= 0 && z % 2 == 0 {
                        value = (p(-1, yy - (xx >> 1) - 1) + p(-1, yy - (xx >> 1)) + 1) >> 1
                    } else if z >= 0 {
                        value = (p(-1, yy - (xx >> 1) - 2) + 2 * p(-1, yy - (xx >> 1) - 1) + p(-1, yy - (xx >> 1)) + 2) >> 2
                    } else if z == -1 {
                        value = (p(-1, 0) + 2 * p(-1, -1) + p(0, -1) + 2) >> 2
                    } else {
                        value = (p(xx - 1, -1) + 2 * p(xx - 2, -1) + p(xx - 3, -1) + 2) >> 2
                    }
                case .verticalLeft:
                    value = yy % 2 == 0 ? (p(xx + (yy >> 1), -1) + p(xx + (yy >> 1) + 1, -1) + 1) >> 1
                        : (p(xx + (yy >> 1), -1) + 2 * p(xx + (yy >> 1) + 1, -1) + p(xx + (yy >> 1) + 2, -1) + 2) >> 2
                case .horizontalUp:
                    let z = xx + 2 * yy
                    if z > 5 {
                        value = p(-1, 3)
                    } else if z == 5 {
                        value = (p(-1, 2) + 3 * p(-1, 3) + 2) >> 2
                    } else if z % 2 == 0 {
                        value = (p(-1, yy + (xx >> 1)) + p(-1, yy + (xx >> 1) + 1) + 1) >> 1
                    } else {
                        value = (p(-1, yy + (xx >> 1)) + 2 * p(-1, yy + (xx >> 1) + 1) + p(-1, yy + (xx >> 1) + 2) + 2) >> 2
                    }
                }
                destination[yy * destinationStride + xx] = UInt8(value)
            }
        }
    }

    /// The fast version: the 13 edge samples gathered once into one line
    /// (e[0…3] = p[−1, 3…0], e[4] = p[−1, −1], e[5…12] = p[0…7, −1]), the 2- and 3-tap filtered
    /// edges computed once, each mode a table of picks from them. No heap allocation.
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`).
    ///   - plane: the picture being reconstructed.
    ///   - x: the block's left column in the plane.
    ///   - y: the block's top row.
    ///   - neighbours: which neighbours are available.
    ///   - destination: receives the 4x4 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func fast(_ mode: Intra4x4Mode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                            into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(mode.isUsable(with: neighbours), "Intra4x4Prediction: \(mode) needs unavailable neighbours")
        let s = plane.stride
        let origin = plane.base + y * s + x
        let top = origin - s
        let hasTop = neighbours.contains(.top), hasLeft = neighbours.contains(.left)
        func fill(_ rows: (UInt32, UInt32, UInt32, UInt32)) {
            storeRow(rows.0, destination); storeRow(rows.1, destination + destinationStride)
            storeRow(rows.2, destination + 2 * destinationStride); storeRow(rows.3, destination + 3 * destinationStride)
        }
        switch mode {
        case .vertical:
            let row = loadRow(top)
            fill((row, row, row, row))
        case .horizontal:
            fill((splat(origin[-1]), splat(origin[s - 1]), splat(origin[2 * s - 1]), splat(origin[3 * s - 1])))
        case .dc:
            var top4 = 0, left4 = 0
            if hasTop { top4 = Int(top[0]) &+ Int(top[1]) &+ Int(top[2]) &+ Int(top[3]) }
            if hasLeft { left4 = Int(origin[-1]) &+ Int(origin[s - 1]) &+ Int(origin[2 * s - 1]) &+ Int(origin[3 * s - 1]) }
            let value = hasTop && hasLeft ? (top4 &+ left4 &+ 4) >> 3
                : (hasLeft ? (left4 &+ 2) >> 2 : (hasTop ? (top4 &+ 2) >> 2 : 128))
            let row = splat(UInt8(value))
            fill((row, row, row, row))
        default:
            // The edge line: e[0…3] = p[−1, 3…0], e[4] = p[−1, −1], e[5…12] = p[0…7, −1].
            var e = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &e) { raw in
                let line = raw.baseAddress!.assumingMemoryBound(to: Int.self)
                if hasLeft { for i in 0..<4 { line[3 - i] = Int(origin[i * s - 1]) } }
                if neighbours.contains(.topLeft) { line[4] = Int(top[-1]) }
                if hasTop {
                    for i in 0..<4 { line[5 + i] = Int(top[i]) }
                    let right = neighbours.contains(.topRight)
                    for i in 4..<8 { line[5 + i] = Int(right ? top[i] : top[3]) }
                }
                predictDirectional(mode, line, destination, destinationStride)
            }
        }
    }

    @inline(__always)
    static func predictDirectional(_ mode: Intra4x4Mode, _ e: UnsafeMutablePointer<Int>,
                                   _ out: UnsafeMutablePointer<UInt8>, _ os: Int) {
        // Filtered edges: f3(i) = (e[i−1] + 2e[i] + e[i+1] + 2) >> 2 centred on i, f2(i) = (e[i] + e[i+1] + 1) >> 1.
        @inline(__always) func f3(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: (e[i - 1] &+ 2 &* e[i] &+ e[i + 1] &+ 2) >> 2) }
        @inline(__always) func f2(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: (e[i] &+ e[i + 1] &+ 1) >> 1) }
        @inline(__always) func put(_ xx: Int, _ yy: Int, _ v: UInt8) { out[yy * os + xx] = v }
        switch mode {
        case .diagonalDownLeft:
            // pred[x, y] = f3 centred on p[x+y+1, −1] = e[6 + x + y]; (3,3) uses p[6] + 3p[7].
            for yy in 0..<4 { for xx in 0..<4 where xx + yy < 6 { put(xx, yy, f3(6 + xx + yy)) } }
            put(3, 3, UInt8(truncatingIfNeeded: (e[11] &+ 3 &* e[12] &+ 2) >> 2))
        case .diagonalDownRight:
            // Along the diagonal through e[4]: pred[x, y] = f3 centred on e[4 + x − y].
            for yy in 0..<4 { for xx in 0..<4 { put(xx, yy, f3(4 + xx - yy)) } }
        case .verticalRight:
            for yy in 0..<4 {
                for xx in 0..<4 {
                    let z = 2 * xx - yy
                    let v: UInt8
                    if z >= 0 && z & 1 == 0 { v = f2(4 + xx - (yy >> 1)) }  // (p[x−(y>>1)−1] + p[x−(y>>1)] + 1) >> 1
                    else if z >= 0 { v = f3(4 + xx - (yy >> 1)) }  // centred on p[x−(y>>1)−1, −1]
                    else if z == -1 { v = f3(4) }
                    else { v = f3(4 - yy + 1) }  // centred on p[−1, y−2] = e[3 − (y − 2)]
                    put(xx, yy, v)
                }
            }
        case .horizontalDown:
            for yy in 0..<4 {
                for xx in 0..<4 {
                    let z = 2 * yy - xx
                    let v: UInt8
                    // p[−1, k] = e[3 − k]: (p[−1, k−1] + p[−1, k] + 1) >> 1 = f2(3 − k) with k = y − (x>>1).
                    if z >= 0 && z & 1 == 0 { v = f2(3 - (yy - (xx >> 1))) }
                    else if z >= 0 { v = f3(3 - (yy - (xx >> 1)) + 1) }  // centred on p[−1, k−1]
                    else if z == -1 { v = f3(4) }
                    else { v = f3(4 + xx - 1) }  // centred on p[x−2, −1] = e[5 + x − 2]
                    put(xx, yy, v)
                }
            }
        case .verticalLeft:
            for yy in 0..<4 {
                for xx in 0..<4 {
                    let k = xx + (yy >> 1)
                    put(xx, yy, yy & 1 == 0 ? f2(5 + k) : f3(6 + k))
                }
            }
        default:  // horizontalUp: on the left column read downwards, l[k] = p[−1, k] = e[3 − k].
            @inline(__always) func l(_ k: Int) -> Int { e[3 - k] }
            for yy in 0..<4 {
                for xx in 0..<4 {
                    let z = xx + 2 * yy, k = yy + (xx >> 1)
                    let v: Int
                    if z > 5 { v = l(3) }
                    else if z == 5 { v = (l(2) &+ 3 &* l(3) &+ 2) >> 2 }
                    else if z & 1 == 0 { v = (l(k) &+ l(k + 1) &+ 1) >> 1 }
                    else { v = (l(k) &+ 2 &* l(k + 1) &+ l(k + 2) &+ 2) >> 2 }
                    put(xx, yy, UInt8(truncatingIfNeeded: v))
                }
            }
        }
    }

    @inline(__always) static func loadRow(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
    }
    @inline(__always) static func storeRow(_ v: UInt32, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: UInt32.self)
    }
    @inline(__always) static func splat(_ v: UInt8) -> UInt32 { UInt32(v) &* 0x0101_0101 }
}

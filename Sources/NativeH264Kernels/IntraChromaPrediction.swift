/// Intra chroma prediction modes (§8.3.4, Table 8-5).
public enum IntraChromaMode: Int, CaseIterable, Sendable {
    /// Intra_Chroma_DC (any neighbours; per-4x4 rules).
    case dc = 0
    /// Intra_Chroma_Horizontal (needs the left column).
    case horizontal = 1
    /// Intra_Chroma_Vertical (needs the top row).
    case vertical = 2
    /// Intra_Chroma_Plane (needs top, left and top-left).
    case plane = 3

    /// Whether the mode may be used with these neighbours.
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

/// Intra prediction of one 8x8 chroma block of a 4:2:0 macroblock (§8.3.4).
public enum IntraChromaPrediction {
    /// The plain version, as §8.3.4.1 … 8.3.4.4 write it (DC per 4x4 chroma block with its rules for
    /// the blocks at (0,0)/(4,4), (4,0) and (0,4)).
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`).
    ///   - plane: the chroma plane being reconstructed.
    ///   - x: the block's left column in the plane.
    ///   - y: the block's top row.
    ///   - neighbours: which neighbours are available.
    ///   - destination: receives the 8x8 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func reference(_ mode: IntraChromaMode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                                 into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(mode.isUsable(with: neighbours), "IntraChromaPrediction: \(mode) needs unavailable neighbours")
        func p(_ px: Int, _ py: Int) -> Int { Int(plane.base[(y + py) * plane.stride + x + px]) }
        let hasTop = neighbours.contains(.top), hasLeft = neighbours.contains(.left)
        for yy in 0..<8 {
            for xx in 0..<8 {
                let value: Int
                switch mode {
                case .dc:
                    let xO = xx & 4, yO = yy & 4
                    let top = (0..<4).reduce(0) { $0 + p(xO + $1, -1) }, left = (0..<4).reduce(0) { $0 + p(-1, yO + $1) }
                    if (xO == 0 && yO == 0) || (xO > 0 && yO > 0) {
                        value = hasTop && hasLeft ? (top + left + 4) >> 3
                            : (hasLeft ? (left + 2) >> 2 : (hasTop ? (top + 2) >> 2 : 128))
                    } else if xO > 0 {
                        value = hasTop ? (top + 2) >> 2 : (hasLeft ? (left + 2) >> 2 : 128)
                    } else {
                        value = hasLeft ? (left + 2) >> 2 : (hasTop ? (top + 2) >> 2 : 128)
                    }
                case .horizontal: value = p(-1, yy)
                case .vertical: value = p(xx, -1)
                case .plane:
                    var h = 0, v = 0
                    for i in 0...3 {
                        h += (i + 1) * (p(4 + i, -1) - p(2 - i, -1))
                        v += (i + 1) * (p(-1, 4 + i) - p(-1, 2 - i))
                    }
                    let a = 16 * (p(-1, 7) + p(7, -1)), b = (34 * h + 32) >> 6, c = (34 * v + 32) >> 6
                    value = Int(clip1((a + b * (xx - 3) + c * (yy - 3) + 16) >> 5))
                }
                destination[yy * destinationStride + xx] = UInt8(value)
            }
        }
    }

    /// The fast version: the four DC values computed once, row copies and fills.
    /// - Parameters:
    ///   - mode: the prediction mode (must be usable with `neighbours`).
    ///   - plane: the chroma plane being reconstructed.
    ///   - x: the block's left column in the plane.
    ///   - y: the block's top row.
    ///   - neighbours: which neighbours are available.
    ///   - destination: receives the 8x8 prediction.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func fast(_ mode: IntraChromaMode, plane: PlaneView, x: Int, y: Int, neighbours: IntraNeighbours,
                            into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        precondition(mode.isUsable(with: neighbours), "IntraChromaPrediction: \(mode) needs unavailable neighbours")
        let s = plane.stride
        let origin = plane.base + y * s + x
        let top = origin - s
        switch mode {
        case .dc:
            let hasTop = neighbours.contains(.top), hasLeft = neighbours.contains(.left)
            var t0 = 0, t1 = 0, l0 = 0, l1 = 0
            if hasTop { for i in 0..<4 { t0 &+= Int(top[i]); t1 &+= Int(top[4 + i]) } }
            if hasLeft { for i in 0..<4 { l0 &+= Int(origin[i * s - 1]); l1 &+= Int(origin[(4 + i) * s - 1]) } }
            let both = hasTop && hasLeft
            let d00 = both ? (t0 &+ l0 &+ 4) >> 3 : (hasLeft ? (l0 &+ 2) >> 2 : (hasTop ? (t0 &+ 2) >> 2 : 128))
            let d11 = both ? (t1 &+ l1 &+ 4) >> 3 : (hasLeft ? (l1 &+ 2) >> 2 : (hasTop ? (t1 &+ 2) >> 2 : 128))
            let d10 = hasTop ? (t1 &+ 2) >> 2 : (hasLeft ? (l0 &+ 2) >> 2 : 128)
            let d01 = hasLeft ? (l1 &+ 2) >> 2 : (hasTop ? (t0 &+ 2) >> 2 : 128)
            for r in 0..<8 {
                let out = destination + r * destinationStride
                out.update(repeating: UInt8(r < 4 ? d00 : d01), count: 4)
                (out + 4).update(repeating: UInt8(r < 4 ? d10 : d11), count: 4)
            }
        case .horizontal:
            for r in 0..<8 { (destination + r * destinationStride).update(repeating: origin[r * s - 1], count: 8) }
        case .vertical:
            for r in 0..<8 { (destination + r * destinationStride).update(from: top, count: 8) }
        case .plane:
            var h = 0, v = 0
            for i in 0...3 {
                h &+= (i &+ 1) &* (Int(top[4 + i]) &- Int(top[2 - i]))
                v &+= (i &+ 1) &* (Int(origin[(4 + i) * s - 1]) &- Int(origin[(2 - i) * s - 1]))
            }
            let a = 16 &* (Int(origin[7 * s - 1]) &+ Int(top[7]))
            let b = (34 &* h &+ 32) >> 6, c = (34 &* v &+ 32) >> 6
            var rowStart = a &- 3 &* b &- 3 &* c &+ 16
            for r in 0..<8 {
                let out = destination + r * destinationStride
                var value = rowStart
                for i in 0..<8 { out[i] = clip1(value >> 5); value &+= b }
                rowStart &+= c
            }
        }
    }
}

/// What the boundary-strength derivation needs to know about the 4x4 block on one side of an edge
/// (frame macroblocks, one reference list: Constrained Baseline).
public struct DeblockingBlockInfo: Sendable, Hashable {
    /// The block belongs to an intra macroblock.
    public var isIntra: Bool
    /// The 4x4 luma transform block holds non-zero transform coefficient levels.
    public var hasCoefficients: Bool
    /// Identifies the reference picture its prediction uses (any value for intra blocks).
    public var referencePicture: Int
    /// Its motion vector in quarter luma samples (horizontal, vertical).
    public var motionVector: SIMD2<Int32>

    /// Creates the description of a block.
    /// - Parameters:
    ///   - isIntra: in an intra macroblock.
    ///   - hasCoefficients: non-zero levels in its 4x4 transform block.
    ///   - referencePicture: which reference picture.
    ///   - motionVector: quarter-sample motion vector.
    public init(isIntra: Bool, hasCoefficients: Bool = false, referencePicture: Int = 0, motionVector: SIMD2<Int32> = .zero) {
        self.isIntra = isIntra
        self.hasCoefficients = hasCoefficients
        self.referencePicture = referencePicture
        self.motionVector = motionVector
    }
}

/// Boundary strength bS of a luma edge between two 4x4 blocks (§8.7.2.1), frame pictures without
/// mixed-edge or field cases. Chroma edges of 4:2:0 take the bS of the corresponding luma edge.
public enum BoundaryStrength {
    /// Derives bS.
    /// - Parameters:
    ///   - p: the block holding p0.
    ///   - q: the block holding q0.
    ///   - isMacroblockEdge: the edge is a macroblock edge.
    /// - Returns: 4 for an intra macroblock edge, 3 for an intra internal edge, 2 when either transform
    ///   block has coefficients, 1 when the references differ or a motion vector component differs by 4 or
    ///   more quarter samples, 0 otherwise.
    public static func derive(p: DeblockingBlockInfo, q: DeblockingBlockInfo, isMacroblockEdge: Bool) -> Int {
        if p.isIntra || q.isIntra { return isMacroblockEdge ? 4 : 3 }
        if p.hasCoefficients || q.hasCoefficients { return 2 }
        if p.referencePicture != q.referencePicture { return 1 }
        let difference = p.motionVector &- q.motionVector
        if abs(difference.x) >= 4 || abs(difference.y) >= 4 { return 1 }
        return 0
    }
}

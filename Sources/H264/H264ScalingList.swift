import Bitstream

/// One `scaling_list( )` of ITU-T H.264 §7.3.2.1.1.1, kept exactly as coded.
///
/// The list is stored as its coded `delta_scale` values so that writing it back gives the same bits;
/// ``values`` and ``usesDefaultScalingMatrix`` derive what the decoder uses from them.
public struct H264ScalingList: Sendable, Hashable {
    /// The number of coefficients: 16 for a 4x4 list, 64 for an 8x8 list.
    public var size: Int
    /// The coded `delta_scale` values, −128…127, in order. Reading stops early when `nextScale`
    /// becomes 0, so there may be fewer values than ``size``.
    public var deltaScales: [Int8]

    /// Creates a list from coded `delta_scale` values.
    /// - Parameters:
    ///   - size: 16 or 64.
    ///   - deltaScales: the values as they are to be coded; the list must stop where `nextScale`
    ///     becomes 0 (or after `size` values), as a parsed list does.
    public init(size: Int, deltaScales: [Int8]) {
        self.size = size
        self.deltaScales = deltaScales
    }

    /// Reads `scaling_list( scalingList, sizeOfScalingList, useDefaultScalingMatrixFlag )`
    /// (ITU-T H.264 §7.3.2.1.1.1).
    /// - Parameters:
    ///   - reader: the RBSP reader, positioned at the first `delta_scale`.
    ///   - size: `sizeOfScalingList`, 16 or 64.
    /// - Throws: ``SyntaxError`` naming `delta_scale` on end of data or a value outside −128…127.
    public init(from reader: inout BitReader, size: Int) throws(SyntaxError) {
        self.size = size
        var deltas: [Int8] = []
        var lastScale: Int32 = 8
        var nextScale: Int32 = 8
        for _ in 0..<size where nextScale != 0 {
            let delta = try reader.se("delta_scale", range: -128...127)
            deltas.append(Int8(delta))
            nextScale = (lastScale + delta + 256) % 256
            if nextScale != 0 { lastScale = nextScale }
        }
        self.deltaScales = deltas
    }

    /// Writes the list as `scaling_list( )` (§7.3.2.1.1.1): the stored `delta_scale` values.
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        for delta in deltaScales { writer.se(Int32(delta)) }
    }

    /// `useDefaultScalingMatrixFlag`: the first `delta_scale` makes `nextScale` 0, which selects the
    /// default list of Table 7-3 / 7-4.
    public var usesDefaultScalingMatrix: Bool {
        guard let first = deltaScales.first else { return false }
        return (8 + Int32(first) + 256) % 256 == 0
    }

    /// The coefficients in coding (zig-zag or field scan) order, as derived in §7.3.2.1.1.1: when
    /// `nextScale` becomes 0 the last value repeats to the end. Meaningless when
    /// ``usesDefaultScalingMatrix`` is true.
    public var values: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(size)
        var lastScale: Int32 = 8
        var nextScale: Int32 = 8
        for index in 0..<size {
            if nextScale != 0 {
                let delta = index < deltaScales.count ? Int32(deltaScales[index]) : 0
                nextScale = (lastScale + delta + 256) % 256
            }
            let value = nextScale == 0 ? lastScale : nextScale
            result.append(UInt8(truncatingIfNeeded: value))
            lastScale = value
        }
        return result
    }
}

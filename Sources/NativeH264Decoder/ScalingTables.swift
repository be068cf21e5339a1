import H264
import NativeH264Kernels

/// The scaling of the active SPS and PPS (§7.4.2.1.1, §7.4.2.2, §8.5.9): the six 4x4 and two 8x8 lists
/// after the fall-back rules of Table 7-2, as LevelScale4x4 and LevelScale8x8 values in memory the decoder
/// owns (computed when the parameter sets change, never per macroblock). ``isFlat`` when every list is
/// Flat_16, so that the flat kernels can be used.
final class ScalingTables {
    /// Every list is flat (no scaling matrix, or one whose lists are all 16).
    private(set) var isFlat = true
    /// LevelScale4x4 of lists 0…5 (Intra Y, Cb, Cr, Inter Y, Cb, Cr): 96 values each, (qP % 6) · 16 + raster.
    let levelScale4x4: UnsafeMutablePointer<Int32>
    /// LevelScale8x8 of the Intra Y and Inter Y lists: 384 values each, (qP % 6) · 64 + raster.
    let levelScale8x8: UnsafeMutablePointer<Int32>
    private var current: (sps: H264ScalingMatrix?, pps: H264ScalingMatrix?, transform8x8: Bool)?

    /// Default_4x4_Intra (Table 7-3), zig-zag order.
    static let default4x4Intra: [UInt8] = [6, 13, 13, 20, 20, 20, 28, 28, 28, 28, 32, 32, 32, 37, 37, 42]
    /// Default_4x4_Inter (Table 7-3), zig-zag order.
    static let default4x4Inter: [UInt8] = [10, 14, 14, 20, 20, 20, 24, 24, 24, 24, 27, 27, 27, 30, 30, 34]
    /// Default_8x8_Intra (Table 7-4), zig-zag order.
    static let default8x8Intra: [UInt8] = [
        6, 10, 10, 13, 11, 13, 16, 16, 16, 16, 18, 18, 18, 18, 18, 23, 23, 23, 23, 23, 23, 25, 25, 25, 25, 25, 25, 25, 27, 27, 27, 27,
        27, 27, 27, 27, 29, 29, 29, 29, 29, 29, 29, 31, 31, 31, 31, 31, 31, 33, 33, 33, 33, 33, 36, 36, 36, 36, 38, 38, 38, 40, 40, 42,
    ]
    /// Default_8x8_Inter (Table 7-4), zig-zag order.
    static let default8x8Inter: [UInt8] = [
        9, 13, 13, 15, 13, 15, 17, 17, 17, 17, 19, 19, 19, 19, 19, 21, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 24, 24, 24, 24,
        24, 24, 24, 24, 25, 25, 25, 25, 25, 25, 25, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 30, 30, 30, 30, 32, 32, 32, 33, 33, 35,
    ]

    /// Creates flat tables.
    init() {
        levelScale4x4 = .allocate(capacity: 6 * 96)
        levelScale8x8 = .allocate(capacity: 2 * 384)
        levelScale4x4.initialize(repeating: 0, count: 6 * 96)
        levelScale8x8.initialize(repeating: 0, count: 2 * 384)
        fill(lists4x4: [[Int32]](repeating: [Int32](repeating: 16, count: 16), count: 6),
             lists8x8: [[Int32]](repeating: [Int32](repeating: 16, count: 64), count: 2))
    }

    deinit {
        levelScale4x4.deallocate()
        levelScale8x8.deallocate()
    }

    /// Makes the tables those of an SPS and PPS (recomputed only when their scaling matrices change).
    /// - Parameters:
    ///   - sps: the active SPS.
    ///   - pps: the PPS of the slice.
    func update(sps: H264SequenceParameterSet, pps: H264PictureParameterSet) {
        let ppsMatrix = pps.fidelityRangeExtension?.scalingMatrix
        if let current, current.sps == sps.scalingMatrix, current.pps == ppsMatrix, current.transform8x8 == pps.transform8x8ModeFlag { return }
        current = (sps.scalingMatrix, ppsMatrix, pps.transform8x8ModeFlag)
        let flat4x4 = [UInt8](repeating: 16, count: 16), flat8x8 = [UInt8](repeating: 16, count: 64)
        // The sequence-level lists (flat without seq_scaling_matrix_present_flag; fall-back rule A).
        var sequence4x4 = [[UInt8]](repeating: flat4x4, count: 6), sequence8x8 = [[UInt8]](repeating: flat8x8, count: 2)
        if let matrix = sps.scalingMatrix {
            (sequence4x4, sequence8x8) = Self.resolve(matrix, fallBack4x4: [Self.default4x4Intra, Self.default4x4Inter],
                                                      fallBack8x8: [Self.default8x8Intra, Self.default8x8Inter])
        }
        var lists4x4 = sequence4x4, lists8x8 = sequence8x8
        if let matrix = ppsMatrix {
            // Fall-back rule A without an SPS matrix, rule B (the sequence-level lists) with one.
            let useSequence = sps.scalingMatrix != nil
            (lists4x4, lists8x8) = Self.resolve(matrix, fallBack4x4: useSequence ? [sequence4x4[0], sequence4x4[3]] : [Self.default4x4Intra, Self.default4x4Inter],
                                                fallBack8x8: useSequence ? sequence8x8 : [Self.default8x8Intra, Self.default8x8Inter])
        }
        let weights4x4 = lists4x4.map { list in Self.raster(list, scan: Zigzag.frame4x4) }
        let weights8x8 = lists8x8.map { list in Self.raster(list, scan: Transform8x8.frameScan) }
        fill(lists4x4: weights4x4, lists8x8: weights8x8)
    }

    /// The lists of one matrix after the fall-back rules of Table 7-2: a list not present takes the fall-back
    /// (lists 0, 3, 6, 7) or the list before it (1, 2, 4, 5); `useDefaultScalingMatrixFlag` selects the default.
    static func resolve(_ matrix: H264ScalingMatrix, fallBack4x4: [[UInt8]], fallBack8x8: [[UInt8]]) -> ([[UInt8]], [[UInt8]]) {
        var lists4x4: [[UInt8]] = [], lists8x8: [[UInt8]] = []
        for index in 0..<6 {
            let list = index < matrix.lists.count ? matrix.lists[index] : nil
            let isIntra = index < 3
            if let list, list.size == 16 {
                lists4x4.append(list.usesDefaultScalingMatrix ? (isIntra ? default4x4Intra : default4x4Inter) : list.values)
            } else {
                lists4x4.append(index == 0 || index == 3 ? fallBack4x4[isIntra ? 0 : 1] : lists4x4[index - 1])
            }
        }
        for index in 0..<2 {
            let list = 6 + index < matrix.lists.count ? matrix.lists[6 + index] : nil
            if let list, list.size == 64 {
                lists8x8.append(list.usesDefaultScalingMatrix ? (index == 0 ? default8x8Intra : default8x8Inter) : list.values)
            } else {
                lists8x8.append(fallBack8x8[index])
            }
        }
        return (lists4x4, lists8x8)
    }

    /// A list in scan order placed at raster positions (weightScale, §8.5.6).
    static func raster(_ list: [UInt8], scan: [Int]) -> [Int32] {
        var out = [Int32](repeating: 16, count: scan.count)
        for k in 0..<min(list.count, scan.count) { out[scan[k]] = Int32(list[k]) }
        return out
    }

    private func fill(lists4x4: [[Int32]], lists8x8: [[Int32]]) {
        isFlat = lists4x4.allSatisfy { $0.allSatisfy { $0 == 16 } } && lists8x8.allSatisfy { $0.allSatisfy { $0 == 16 } }
        for (index, weights) in lists4x4.enumerated() {
            let table = Quantisation.levelScale(weights: weights)
            for k in 0..<96 { levelScale4x4[index * 96 + k] = table[k] }
        }
        for (index, weights) in lists8x8.enumerated() {
            let table = Quantisation8x8.levelScale(weights: weights)
            for k in 0..<384 { levelScale8x8[index * 384 + k] = table[k] }
        }
    }

    private func fill(lists4x4: [[UInt8]], lists8x8: [[UInt8]]) {
        fill(lists4x4: lists4x4.map { $0.map(Int32.init) }, lists8x8: lists8x8.map { $0.map(Int32.init) })
    }
}

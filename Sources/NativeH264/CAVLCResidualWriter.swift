import Bitstream
import NativeH264Kernels

/// Writes `residual_block_cavlc( )` (§7.3.5.3.2) with the codes of §9.2: coeff_token, the trailing
/// ones' signs, level_prefix/level_suffix (escape included), total_zeros and run_before.
enum CAVLCResidualWriter {
    /// The largest |level| written: with level_prefix ≤ 15 (the limit of Baseline, Main and Extended,
    /// §9.2.2.1) every suffixLength can code it. The quantiser clamps to it.
    static let maximumLevel: Int32 = 2063

    /// Writes one block.
    /// - Parameters:
    ///   - levels: the block's levels in scan order (`count` of them, starting at the block's first
    ///     coded position: index 0 for Intra16x16DCLevel and 4x4 blocks, 1 for AC blocks).
    ///   - count: maxNumCoeff: 16, 15 (AC) or 4 (chroma DC).
    ///   - nC: the coeff_token table selector (§9.2.1), −1 for chroma DC.
    ///   - writer: the slice data writer.
    /// - Returns: TotalCoeff(coeff_token), what later blocks use for their nC.
    @discardableResult
    static func write<Sink: SyntaxBitSink>(_ levels: UnsafePointer<Int32>, count: Int, nC: Int, to writer: inout Sink) -> Int {
        // Non-zero levels from the highest frequency down, and the zeros before each.
        var totalCoeff = 0, lastIndex = -1
        for i in 0..<count where levels[i] != 0 { totalCoeff += 1; lastIndex = i }
        var trailingOnes = 0
        var i = lastIndex
        while i >= 0 && trailingOnes < 3 {
            if levels[i] != 0 {
                if abs(levels[i]) != 1 { break }
                trailingOnes += 1
            }
            i -= 1
        }
        let token = CAVLCTables.coeffToken(nC: nC, totalCoeff: totalCoeff, trailingOnes: trailingOnes)
        writer.u(Int(token.length), UInt32(token.value))
        guard totalCoeff > 0 else { return 0 }

        // The levels in coding order (highest frequency first) with the run of zeros below each.
        var coded = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                     Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        var runs = coded
        withUnsafeMutableBytes(of: &coded) { codedRaw in
            withUnsafeMutableBytes(of: &runs) { runsRaw in
                let level = codedRaw.baseAddress!.assumingMemoryBound(to: Int32.self)
                let run = runsRaw.baseAddress!.assumingMemoryBound(to: Int32.self)
                var n = 0, zeros: Int32 = 0
                var position = lastIndex
                while position >= 0 {
                    if levels[position] != 0 {
                        if n > 0 { run[n - 1] = zeros }
                        level[n] = levels[position]
                        n += 1
                        zeros = 0
                    } else {
                        zeros += 1
                    }
                    position -= 1
                }
                run[n - 1] = zeros  // zeros below the lowest coefficient (not coded)
                writeLevels(level, totalCoeff: totalCoeff, trailingOnes: trailingOnes, to: &writer)
                let totalZeros = lastIndex + 1 - totalCoeff  // every zero below the last coefficient
                if totalCoeff < count {
                    let code = CAVLCTables.totalZeros(totalZeros, totalCoeff: totalCoeff, isChromaDC: nC < 0)
                    writer.u(Int(code.length), UInt32(code.value))
                }
                var zerosLeft = totalZeros
                var k = 0
                while k < totalCoeff - 1 && zerosLeft > 0 {
                    let code = CAVLCTables.runBefore(Int(run[k]), zerosLeft: zerosLeft)
                    writer.u(Int(code.length), UInt32(code.value))
                    zerosLeft -= Int(run[k])
                    k += 1
                }
            }
        }
        return totalCoeff
    }

    /// The trailing ones' signs, then level_prefix/level_suffix of the other levels (§9.2.2, 9.2.2.1).
    static func writeLevels<Sink: SyntaxBitSink>(_ level: UnsafePointer<Int32>, totalCoeff: Int, trailingOnes: Int, to writer: inout Sink) {
        for k in 0..<trailingOnes { writer.u(1, level[k] < 0 ? 1 : 0) }
        var suffixLength = totalCoeff > 10 && trailingOnes < 3 ? 1 : 0
        for k in trailingOnes..<totalCoeff {
            let value = Int(level[k])
            var levelCode = value > 0 ? 2 * value - 2 : -2 * value - 1
            if k == trailingOnes && trailingOnes < 3 { levelCode -= 2 }
            if suffixLength == 0 {
                if levelCode < 14 {
                    writePrefix(levelCode, &writer)
                } else if levelCode < 30 {
                    writePrefix(14, &writer)
                    writer.u(4, UInt32(levelCode - 14))
                } else {
                    writePrefix(15, &writer)
                    writer.u(12, UInt32(levelCode - 30))
                }
            } else if levelCode < (15 << suffixLength) {
                writePrefix(levelCode >> suffixLength, &writer)
                writer.u(suffixLength, UInt32(levelCode & ((1 << suffixLength) - 1)))
            } else {
                writePrefix(15, &writer)
                writer.u(12, UInt32(levelCode - (15 << suffixLength)))
            }
            if suffixLength == 0 { suffixLength = 1 }
            if abs(value) > (3 << (suffixLength - 1)) && suffixLength < 6 { suffixLength += 1 }
        }
    }

    /// level_prefix: that many zeros, then a one.
    @inline(__always)
    static func writePrefix<Sink: SyntaxBitSink>(_ prefix: Int, _ writer: inout Sink) {
        writer.u(prefix + 1, 1)
    }
}

/// The variable-length code tables of CAVLC residual coding (ITU-T H.264 §9.2), as (length, code)
/// pairs: the code is the value of its `length` bits, most significant first.
///
/// Shared by the encoder's writer (NativeH264) and the decoder's reader (NativeH264Decoder), which derives its lookup tables from these.
package enum CAVLCTables {
    /// A variable-length code.
    package struct Code: Sendable {
        /// How many bits.
        package let length: UInt8
        /// Their value.
        package let value: UInt16
    }

    /// Table 9-5, coeff_token for 0 ≤ nC < 2, 2 ≤ nC < 4, 4 ≤ nC < 8: lengths by [TotalCoeff][TrailingOnes].
    package static let coeffTokenLengths: [[[UInt8]]] = [
        [[1, 0, 0, 0], [6, 2, 0, 0], [8, 6, 3, 0], [9, 8, 7, 5], [10, 9, 8, 6], [11, 10, 9, 7], [13, 11, 10, 8],
         [13, 13, 11, 9], [13, 13, 13, 10], [14, 14, 13, 11], [14, 14, 14, 13], [15, 15, 14, 14], [15, 15, 15, 14],
         [16, 15, 15, 15], [16, 16, 16, 15], [16, 16, 16, 16], [16, 16, 16, 16]],
        [[2, 0, 0, 0], [6, 2, 0, 0], [6, 5, 3, 0], [7, 6, 6, 4], [8, 6, 6, 4], [8, 7, 7, 5], [9, 8, 8, 6],
         [11, 9, 9, 6], [11, 11, 11, 7], [12, 11, 11, 9], [12, 12, 12, 11], [12, 12, 12, 11], [13, 13, 13, 12],
         [13, 13, 13, 13], [13, 14, 13, 13], [14, 14, 14, 13], [14, 14, 14, 14]],
        [[4, 0, 0, 0], [6, 4, 0, 0], [6, 5, 4, 0], [6, 5, 5, 4], [7, 5, 5, 4], [7, 5, 5, 4], [7, 6, 6, 4],
         [7, 6, 6, 4], [8, 7, 7, 5], [8, 8, 7, 6], [9, 8, 8, 7], [9, 9, 8, 8], [9, 9, 9, 8],
         [10, 9, 9, 9], [10, 10, 10, 10], [10, 10, 10, 10], [10, 10, 10, 10]],
    ]
    /// Table 9-5, coeff_token code values, same layout as ``coeffTokenLengths``.
    package static let coeffTokenValues: [[[UInt16]]] = [
        [[1, 0, 0, 0], [5, 1, 0, 0], [7, 4, 1, 0], [7, 6, 5, 3], [7, 6, 5, 3], [7, 6, 5, 4], [15, 6, 5, 4],
         [11, 14, 5, 4], [8, 10, 13, 4], [15, 14, 9, 4], [11, 10, 13, 12], [15, 14, 9, 12], [11, 10, 13, 8],
         [15, 1, 9, 12], [11, 14, 13, 8], [7, 10, 9, 12], [4, 6, 5, 8]],
        [[3, 0, 0, 0], [11, 2, 0, 0], [7, 7, 3, 0], [7, 10, 9, 5], [7, 6, 5, 4], [4, 6, 5, 6], [7, 6, 5, 8],
         [15, 6, 5, 4], [11, 14, 13, 4], [15, 10, 9, 4], [11, 14, 13, 12], [8, 10, 9, 8], [15, 14, 13, 12],
         [11, 10, 9, 12], [7, 11, 6, 8], [9, 8, 10, 1], [7, 6, 5, 4]],
        [[15, 0, 0, 0], [15, 14, 0, 0], [11, 15, 13, 0], [8, 12, 14, 12], [15, 10, 11, 11], [11, 8, 9, 10], [9, 14, 13, 9],
         [8, 10, 9, 8], [15, 14, 13, 13], [11, 14, 10, 12], [15, 10, 13, 12], [11, 14, 9, 12], [8, 10, 13, 8],
         [13, 7, 9, 12], [9, 12, 11, 10], [5, 8, 7, 6], [1, 4, 3, 2]],
    ]
    /// Table 9-5, coeff_token for nC = −1 (4:2:0 chroma DC): lengths by [TotalCoeff][TrailingOnes].
    package static let chromaDCCoeffTokenLengths: [[UInt8]] = [[2, 0, 0, 0], [6, 1, 0, 0], [6, 6, 3, 0], [6, 7, 7, 6], [6, 8, 8, 7]]
    /// Table 9-5, coeff_token code values for nC = −1.
    package static let chromaDCCoeffTokenValues: [[UInt16]] = [[1, 0, 0, 0], [7, 1, 0, 0], [4, 6, 1, 0], [3, 3, 2, 5], [2, 3, 2, 0]]

    /// coeff_token (Table 9-5) for the given nC.
    /// - Parameters:
    ///   - nC: −1 for chroma DC, otherwise 0 or more.
    ///   - totalCoeff: 0…16 (0…4 for chroma DC).
    ///   - trailingOnes: 0…3.
    /// - Returns: the code.
    package static func coeffToken(nC: Int, totalCoeff: Int, trailingOnes: Int) -> Code {
        if nC < 0 {
            return Code(length: chromaDCCoeffTokenLengths[totalCoeff][trailingOnes],
                        value: chromaDCCoeffTokenValues[totalCoeff][trailingOnes])
        }
        if nC >= 8 {
            // 6-bit fixed-length code: xxxxyy with xxxx = TotalCoeff − 1, yy = TrailingOnes; 0000 11 for none.
            return totalCoeff == 0 ? Code(length: 6, value: 3) : Code(length: 6, value: UInt16((totalCoeff - 1) << 2 | trailingOnes))
        }
        let table = nC < 2 ? 0 : (nC < 4 ? 1 : 2)
        return Code(length: coeffTokenLengths[table][totalCoeff][trailingOnes], value: coeffTokenValues[table][totalCoeff][trailingOnes])
    }

    /// Tables 9-7 and 9-8, total_zeros for 4x4 blocks: lengths by [TotalCoeff − 1][total_zeros].
    package static let totalZerosLengths: [[UInt8]] = [
        [1, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 9], [3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 6, 6],
        [4, 3, 3, 3, 4, 4, 3, 3, 4, 5, 5, 6, 5, 6], [5, 3, 4, 4, 3, 3, 3, 4, 3, 4, 5, 5, 5],
        [4, 4, 4, 3, 3, 3, 3, 3, 4, 5, 4, 5], [6, 5, 3, 3, 3, 3, 3, 3, 4, 3, 6], [6, 5, 3, 3, 3, 2, 3, 4, 3, 6],
        [6, 4, 5, 3, 2, 2, 3, 3, 6], [6, 6, 4, 2, 2, 3, 2, 5], [5, 5, 3, 2, 2, 2, 4], [4, 4, 3, 3, 1, 3],
        [4, 4, 2, 1, 3], [3, 3, 1, 2], [2, 2, 1], [1, 1],
    ]
    /// Tables 9-7 and 9-8, total_zeros code values, same layout.
    package static let totalZerosValues: [[UInt16]] = [
        [1, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 1], [7, 6, 5, 4, 3, 5, 4, 3, 2, 3, 2, 3, 2, 1, 0],
        [5, 7, 6, 5, 4, 3, 4, 3, 2, 3, 2, 1, 1, 0], [3, 7, 5, 4, 6, 5, 4, 3, 3, 2, 2, 1, 0],
        [5, 4, 3, 7, 6, 5, 4, 3, 2, 1, 1, 0], [1, 1, 7, 6, 5, 4, 3, 2, 1, 1, 0], [1, 1, 5, 4, 3, 3, 2, 1, 1, 0],
        [1, 1, 1, 3, 3, 2, 2, 1, 0], [1, 0, 1, 3, 2, 1, 1, 1], [1, 0, 1, 3, 2, 1, 1], [0, 1, 1, 2, 1, 3],
        [0, 1, 1, 1, 1], [0, 1, 1, 1], [0, 1, 1], [0, 1],
    ]
    /// Table 9-9 (a), total_zeros for 4:2:0 chroma DC: lengths by [TotalCoeff − 1][total_zeros].
    package static let chromaDCTotalZerosLengths: [[UInt8]] = [[1, 2, 3, 3], [1, 2, 2], [1, 1]]
    /// Table 9-9 (a), code values.
    package static let chromaDCTotalZerosValues: [[UInt16]] = [[1, 1, 1, 0], [1, 1, 0], [1, 0]]

    /// total_zeros (Tables 9-7, 9-8, 9-9 a).
    /// - Parameters:
    ///   - totalZeros: the value.
    ///   - totalCoeff: TotalCoeff(coeff_token), 1…15 (1…3 for chroma DC).
    ///   - isChromaDC: the 2x2 chroma DC block.
    /// - Returns: the code.
    package static func totalZeros(_ totalZeros: Int, totalCoeff: Int, isChromaDC: Bool) -> Code {
        isChromaDC ? Code(length: chromaDCTotalZerosLengths[totalCoeff - 1][totalZeros], value: chromaDCTotalZerosValues[totalCoeff - 1][totalZeros])
            : Code(length: totalZerosLengths[totalCoeff - 1][totalZeros], value: totalZerosValues[totalCoeff - 1][totalZeros])
    }

    /// Table 9-10, run_before: lengths by [min(zerosLeft, 7) − 1][run_before].
    package static let runBeforeLengths: [[UInt8]] = [
        [1, 1], [1, 2, 2], [2, 2, 2, 2], [2, 2, 2, 3, 3], [2, 2, 3, 3, 3, 3], [2, 3, 3, 3, 3, 3, 3],
        [3, 3, 3, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    ]
    /// Table 9-10, code values.
    package static let runBeforeValues: [[UInt16]] = [
        [1, 0], [1, 1, 0], [3, 2, 1, 0], [3, 2, 1, 1, 0], [3, 2, 3, 2, 1, 0], [3, 0, 1, 3, 2, 5, 4],
        [7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    ]

    /// run_before (Table 9-10).
    /// - Parameters:
    ///   - run: run_before.
    ///   - zerosLeft: zeros not yet accounted for, ≥ 1.
    /// - Returns: the code.
    package static func runBefore(_ run: Int, zerosLeft: Int) -> Code {
        let row = min(zerosLeft, 7) - 1
        return Code(length: runBeforeLengths[row][run], value: runBeforeValues[row][run])
    }
}

/// Reads `residual_block_cavlc( )` (§7.3.5.3.2) with the parsing of §9.2: coeff_token, the trailing
/// ones' signs, level_prefix/level_suffix, total_zeros and run_before.
enum CAVLCResidualReader {
    /// Reads one block and stores its levels at their scan positions.
    /// - Parameters:
    ///   - reader: the slice data reader.
    ///   - nC: the coeff_token selector (§9.2.1), −1 for chroma DC.
    ///   - maxNumCoeff: 16, 15 (AC blocks) or 4 (chroma DC).
    ///   - levels: where coefficient k of the block goes (`levels[k]`, k = 0 ..< maxNumCoeff; the caller
    ///     offsets it by one for AC blocks). The caller zeroes it beforehand.
    /// - Returns: TotalCoeff(coeff_token).
    /// - Throws: ``SliceDataError`` naming the element that does not decode.
    @inline(__always)
    static func read(_ reader: inout SliceBitReader, nC: Int, maxNumCoeff: Int, into levels: UnsafeMutablePointer<Int32>) throws(SliceDataError) -> Int {
        let token: Int
        if nC < 0 {
            token = try reader.read(CAVLCDecodingTables.chromaDCCoeffToken, "coeff_token")
        } else if nC >= 8 {
            let code = Int(reader.bits(6))
            token = code == 3 ? 0 : ((code >> 2) + 1) << 2 | (code & 3)
            if code != 3 && (code & 3) > (code >> 2) + 1 { throw SliceDataError(field: "coeff_token") }
        } else {
            token = try reader.read(CAVLCDecodingTables.coeffToken[nC < 2 ? 0 : (nC < 4 ? 1 : 2)], "coeff_token")
        }
        let totalCoeff = token >> 2, trailingOnes = token & 3
        if totalCoeff == 0 { return 0 }
        guard totalCoeff <= maxNumCoeff else { throw SliceDataError(field: "coeff_token (TotalCoeff above maxNumCoeff)") }
        // Levels, highest frequency first.
        var levelValues = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                           Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        try withUnsafeMutableBytes(of: &levelValues) { (raw) throws(SliceDataError) in
            let level = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            var suffixLength = totalCoeff > 10 && trailingOnes < 3 ? 1 : 0
            for i in 0..<totalCoeff {
                if i < trailingOnes {
                    level[i] = reader.bit() ? -1 : 1
                    continue
                }
                let prefix = try reader.leadingZerosAndOne()
                var levelCode = min(15, prefix) << suffixLength
                if suffixLength > 0 || prefix >= 14 {
                    let size = prefix == 14 && suffixLength == 0 ? 4 : (prefix >= 15 ? prefix - 3 : suffixLength)
                    if size > 0 {
                        guard size <= 25 else { throw SliceDataError(field: "level_prefix") }
                        levelCode += Int(reader.bits(size))
                    }
                }
                if prefix >= 15 && suffixLength == 0 { levelCode += 15 }
                if prefix >= 16 { levelCode += (1 << (prefix - 3)) - 4096 }
                if i == trailingOnes && trailingOnes < 3 { levelCode += 2 }
                let value = levelCode & 1 == 0 ? (levelCode + 2) >> 1 : (-levelCode - 1) >> 1
                guard value >= -(1 << 20) && value <= (1 << 20) else { throw SliceDataError(field: "level_suffix (level out of range)") }
                level[i] = Int32(value)
                if suffixLength == 0 { suffixLength = 1 }
                if abs(value) > (3 << (suffixLength - 1)) && suffixLength < 6 { suffixLength += 1 }
            }
            var zerosLeft = 0
            if totalCoeff < maxNumCoeff {
                zerosLeft = nC < 0
                    ? try reader.read(CAVLCDecodingTables.chromaDCTotalZeros[totalCoeff - 1], "total_zeros")
                    : try reader.read(CAVLCDecodingTables.totalZeros[totalCoeff - 1], "total_zeros")
                guard totalCoeff + zerosLeft <= maxNumCoeff else { throw SliceDataError(field: "total_zeros") }
            }
            // Positions: the highest-frequency coefficient sits at totalCoeff + zerosLeft − 1.
            var position = totalCoeff + zerosLeft - 1
            for i in 0..<totalCoeff {
                levels[position] = level[i]
                if i == totalCoeff - 1 { break }
                var run = 0
                if zerosLeft > 0 {
                    run = try reader.read(CAVLCDecodingTables.runBefore[min(zerosLeft, 7) - 1], "run_before")
                    guard run <= zerosLeft else { throw SliceDataError(field: "run_before") }
                    zerosLeft -= run
                }
                position -= run + 1
            }
        }
        return totalCoeff
    }
}

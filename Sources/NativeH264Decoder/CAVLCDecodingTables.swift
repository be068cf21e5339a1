import NativeH264Kernels

/// Lookup tables that decode the variable-length codes of CAVLC (§9.2.1 coeff_token, §9.2.3
/// total_zeros, run_before), derived once from the encoder's code tables (``CAVLCTables``): each table
/// is indexed by the next `bits` bits of the stream and holds `length << 8 | symbol`, or 0 where no
/// code starts with those bits.
enum CAVLCDecodingTables {
    /// One decoding table: its width in bits and its entries.
    struct Table: Sendable {
        /// How many bits index it (the longest code).
        let bits: Int
        /// `length << 8 | symbol` per index, 0 for an invalid prefix.
        let entries: [UInt16]

        /// Builds the table from (length, code, symbol) triples.
        init(bits: Int, codes: [(length: Int, value: Int, symbol: Int)]) {
            var entries = [UInt16](repeating: 0, count: 1 << bits)
            for code in codes where code.length > 0 {
                let shift = bits - code.length
                let first = code.value << shift, count = 1 << shift
                for index in first..<(first + count) { entries[index] = UInt16(code.length << 8 | code.symbol) }
            }
            self.bits = bits
            self.entries = entries
        }
    }

    /// coeff_token for 0 ≤ nC < 2, 2 ≤ nC < 4, 4 ≤ nC < 8 (Table 9-5); symbol = TotalCoeff << 2 | TrailingOnes.
    static let coeffToken: [Table] = (0..<3).map { table in
        var codes: [(length: Int, value: Int, symbol: Int)] = []
        for total in 0...16 {
            for ones in 0...min(3, total) {
                codes.append((Int(CAVLCTables.coeffTokenLengths[table][total][ones]), Int(CAVLCTables.coeffTokenValues[table][total][ones]),
                              total << 2 | ones))
            }
        }
        return Table(bits: 16, codes: codes)
    }

    /// coeff_token for nC = −1 (4:2:0 chroma DC).
    static let chromaDCCoeffToken: Table = {
        var codes: [(length: Int, value: Int, symbol: Int)] = []
        for total in 0...4 {
            for ones in 0...min(3, total) {
                codes.append((Int(CAVLCTables.chromaDCCoeffTokenLengths[total][ones]), Int(CAVLCTables.chromaDCCoeffTokenValues[total][ones]),
                              total << 2 | ones))
            }
        }
        return Table(bits: 8, codes: codes)
    }()

    /// total_zeros of 4x4 blocks by TotalCoeff − 1 (Tables 9-7, 9-8).
    static let totalZeros: [Table] = CAVLCTables.totalZerosLengths.indices.map { row in
        let lengths = CAVLCTables.totalZerosLengths[row], values = CAVLCTables.totalZerosValues[row]
        return Table(bits: 9, codes: lengths.indices.map { (Int(lengths[$0]), Int(values[$0]), $0) })
    }

    /// total_zeros of 4:2:0 chroma DC by TotalCoeff − 1 (Table 9-9 a).
    static let chromaDCTotalZeros: [Table] = CAVLCTables.chromaDCTotalZerosLengths.indices.map { row in
        let lengths = CAVLCTables.chromaDCTotalZerosLengths[row], values = CAVLCTables.chromaDCTotalZerosValues[row]
        return Table(bits: 3, codes: lengths.indices.map { (Int(lengths[$0]), Int(values[$0]), $0) })
    }

    /// run_before by min(zerosLeft, 7) − 1 (Table 9-10).
    static let runBefore: [Table] = CAVLCTables.runBeforeLengths.indices.map { row in
        let lengths = CAVLCTables.runBeforeLengths[row], values = CAVLCTables.runBeforeValues[row]
        return Table(bits: 11, codes: lengths.indices.map { (Int(lengths[$0]), Int(values[$0]), $0) })
    }
}

extension SliceBitReader {
    /// Reads one code with a decoding table.
    /// - Parameters:
    ///   - table: the table.
    ///   - field: the syntax element, for the error.
    /// - Returns: the symbol.
    /// - Throws: ``SliceDataError`` when no code matches.
    @inline(__always) mutating func read(_ table: CAVLCDecodingTables.Table, _ field: String) throws(SliceDataError) -> Int {
        let index = Int(peek32() >> UInt32(32 - table.bits))
        let entry = Int(table.entries[index])
        guard entry != 0 else { throw SliceDataError(field: field) }
        position &+= entry >> 8
        return entry & 0xFF
    }
}

import Bitstream

/// Counting and writing the Huffman-coded quantised values of one scalefactor band (ISO/IEC 14496-3
/// §4.6.3, `spectral_data()`, codebooks of annex 4.A): 4-tuples or pairs, indexed as the digits of the
/// values in base (2·LAV + 1) when signed or (LAV + 1) when not, sign bits after each unsigned codeword,
/// and for codebook 11 the escape sequence (§4.6.3.3) of every value of magnitude 16 or more.
///
/// The codeword tables are the decoder's (``AACHuffmanCodebook/spectral``), read in the other direction.
enum AACSpectralCoder {
    /// The largest magnitude each codebook 1…11 codes directly (element 0 is codebook 1); 16 in
    /// codebook 11 means "escape".
    static let largestValues = [1, 1, 2, 2, 4, 4, 7, 7, 12, 12, 16]
    /// The codeword lengths of each codebook (element 0 is codebook 1), as `Int32`s for fast sums.
    static let lengths: [[Int32]] = AACHuffmanCodebook.spectral.map { $0.lengths.map(Int32.init) }

    /// The first codebook able to code a band whose largest magnitude is `largest`.
    /// - Parameter largest: the band's largest quantised magnitude (≥ 1).
    /// - Returns: 1, 3, 5, 7, 9 or 11.
    static func smallestCodebook(forLargest largest: Int) -> Int {
        switch largest {
        case 0...1: return 1
        case 2: return 3
        case 3...4: return 5
        case 5...7: return 7
        case 8...12: return 9
        default: return 11
        }
    }

    /// The index of a signed 4-tuple (codebooks 1 and 2): its values + 1 as base-3 digits.
    @inline(__always)
    static func signedQuad(_ v: UnsafePointer<Int32>) -> Int {
        let high = Int(v[0] + 1) * 27 + Int(v[1] + 1) * 9
        return high + Int(v[2] + 1) * 3 + Int(v[3] + 1)
    }

    /// The index of an unsigned 4-tuple (codebooks 3 and 4): its magnitudes as base-3 digits.
    @inline(__always)
    static func unsignedQuad(_ v: UnsafePointer<Int32>) -> Int {
        let high = Int(abs(v[0])) * 27 + Int(abs(v[1])) * 9
        return high + Int(abs(v[2])) * 3 + Int(abs(v[3]))
    }

    /// The bits of an escape sequence for a magnitude of 16 or more: `N − 4` ones, a zero, then `N`
    /// bits, where `N = ⌊log2 |v|⌋`.
    @inline(__always)
    static func escapeBits(_ magnitude: Int32) -> Int32 {
        let n = Int32(31 - UInt32(magnitude).leadingZeroBitCount)
        return 2 * n - 3
    }

    /// The bits a run of quantised values costs in a codebook.
    /// - Parameters:
    ///   - values: the values (a multiple of the codebook's dimension), every magnitude within reach
    ///     of the codebook (≤ LAV, or anything up to 8191 for codebook 11).
    ///   - codebook: 1…11.
    /// - Returns: codewords, sign bits and escapes.
    static func bits(_ values: UnsafePointer<Int32>, count: Int, codebook: Int) -> Int {
        let table = lengths[codebook - 1]
        var total: Int32 = 0
        table.withUnsafeBufferPointer { lengths in
            switch codebook {
            case 1, 2:
                var i = 0
                while i < count {
                    total += lengths[signedQuad(values + i)]
                    i += 4
                }
            case 3, 4:
                var i = 0
                while i < count {
                    total += lengths[unsignedQuad(values + i)]
                    for slot in 0..<4 where values[i + slot] != 0 { total += 1 }
                    i += 4
                }
            case 5, 6:
                var i = 0
                while i < count {
                    total += lengths[Int((values[i] + 4) * 9 + values[i + 1] + 4)]
                    i += 2
                }
            case 7, 8, 9, 10:
                let modulus: Int32 = codebook <= 8 ? 8 : 13
                var i = 0
                while i < count {
                    let a = abs(values[i]), b = abs(values[i + 1])
                    total += lengths[Int(a * modulus + b)] + (a != 0 ? 1 : 0) + (b != 0 ? 1 : 0)
                    i += 2
                }
            default:
                var i = 0
                while i < count {
                    let a = abs(values[i]), b = abs(values[i + 1])
                    total += lengths[Int(min(a, 16) * 17 + min(b, 16))] + (a != 0 ? 1 : 0) + (b != 0 ? 1 : 0)
                    if a >= 16 { total += escapeBits(a) }
                    if b >= 16 { total += escapeBits(b) }
                    i += 2
                }
            }
        }
        return Int(total)
    }

    /// Writes a run of quantised values in a codebook (§4.6.3: codeword, sign bits, escapes).
    /// - Parameters:
    ///   - values: the values, as for ``bits(_:count:codebook:)``.
    ///   - count: how many.
    ///   - codebook: 1…11.
    ///   - writer: receives the bits.
    static func write(_ values: UnsafePointer<Int32>, count: Int, codebook: Int, to writer: inout BitWriter) {
        let book = AACHuffmanCodebook.spectral[codebook - 1]
        func put(_ index: Int) { writer.writeBits(UInt64(book.codewords[index]), count: Int(book.lengths[index])) }
        func sign(_ value: Int32) { if value != 0 { writer.writeBits(value < 0 ? 1 : 0, count: 1) } }
        func escape(_ value: Int32) {
            let magnitude = abs(value)
            guard magnitude >= 16 else { return }
            let n = 31 - UInt32(magnitude).leadingZeroBitCount
            for _ in 0..<(n - 4) { writer.writeBits(1, count: 1) }
            writer.writeBits(0, count: 1)
            writer.writeBits(UInt64(UInt32(magnitude) - (1 << n)), count: Int(n))
        }
        var i = 0
        switch codebook {
        case 1, 2:
            while i < count {
                put(signedQuad(values + i))
                i += 4
            }
        case 3, 4:
            while i < count {
                put(unsignedQuad(values + i))
                for slot in 0..<4 { sign(values[i + slot]) }
                i += 4
            }
        case 5, 6:
            while i < count {
                put(Int((values[i] + 4) * 9 + values[i + 1] + 4))
                i += 2
            }
        case 7, 8, 9, 10:
            let modulus: Int32 = codebook <= 8 ? 8 : 13
            while i < count {
                put(Int(abs(values[i]) * modulus + abs(values[i + 1])))
                sign(values[i]); sign(values[i + 1])
                i += 2
            }
        default:
            while i < count {
                put(Int(min(abs(values[i]), 16) * 17 + min(abs(values[i + 1]), 16)))
                sign(values[i]); sign(values[i + 1])
                escape(values[i]); escape(values[i + 1])
                i += 2
            }
        }
    }
}

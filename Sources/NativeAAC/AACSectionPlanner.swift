/// `section_data()` chosen to cost the fewest bits (ISO/IEC 14496-3 §4.5.2.3.3): given what each band
/// of a window group costs in each codebook, the codebook of every band, by dynamic programming over
/// (band, codebook) — a band either continues the previous band's section or opens a new one, which
/// costs `sect_cb` (4 bits) and a `sect_len` field (5 bits long, 3 bits short). Consecutive bands with
/// the same codebook then form one section.
enum AACSectionPlanner {
    /// The cost that marks a codebook unable to code a band.
    static let impossible = Int.max / 4
    /// The codebooks a section can take: 0 (all zero), the spectral codebooks 1…11, 12 (reserved, never
    /// chosen) and 13 (`NOISE_HCB`, perceptual noise substitution).
    static let codebookCount = 14

    /// Chooses the codebooks of the bands of one group.
    /// - Parameters:
    ///   - costs: `bands × 14` bits, `costs[band * 14 + codebook]` (``impossible`` where it cannot code).
    ///   - bands: the number of bands.
    ///   - lengthBits: `sect_len` bits: 5 for long windows, 3 for short.
    ///   - codebooks: receives each band's codebook.
    /// - Returns: the bits of section data and spectral data together.
    static func plan(costs: UnsafePointer<Int>, bands: Int, lengthBits: Int, codebooks: UnsafeMutablePointer<Int>) -> Int {
        guard bands > 0 else { return 0 }
        let header = 4 + lengthBits
        let escape = (1 << lengthBits) - 1
        // best[b * 12 + c]: the cheapest coding of bands 0…b with band b in codebook c; from: its predecessor's codebook.
        var best = [Int](repeating: impossible, count: bands * codebookCount)
        var from = [Int](repeating: 0, count: bands * codebookCount)
        var run = [Int](repeating: 0, count: bands * codebookCount)
        for c in 0..<codebookCount where costs[c] < impossible {
            best[c] = costs[c] + header
            run[c] = 1
        }
        for b in 1..<bands {
            var cheapest = impossible
            var cheapestCodebook = 0
            for c in 0..<codebookCount where best[(b - 1) * codebookCount + c] < cheapest {
                cheapest = best[(b - 1) * codebookCount + c]
                cheapestCodebook = c
            }
            for c in 0..<codebookCount {
                let cost = costs[b * codebookCount + c]
                guard cost < impossible else { continue }
                let previous = (b - 1) * codebookCount + c
                var continued = impossible
                if best[previous] < impossible {
                    // A section longer than the escape value needs one more sect_len field.
                    continued = best[previous] + cost + ((run[previous] + 1) % escape == 0 ? lengthBits : 0)
                }
                let opened = cheapest + cost + header
                let index = b * codebookCount + c
                if continued <= opened {
                    best[index] = continued
                    from[index] = c
                    run[index] = run[previous] + 1
                } else {
                    best[index] = opened
                    from[index] = cheapestCodebook
                    run[index] = 1
                }
            }
        }
        var codebook = 0
        var total = impossible
        for c in 0..<codebookCount where best[(bands - 1) * codebookCount + c] < total {
            total = best[(bands - 1) * codebookCount + c]
            codebook = c
        }
        for b in stride(from: bands - 1, through: 0, by: -1) {
            codebooks[b] = codebook
            codebook = from[b * codebookCount + codebook]
        }
        return total
    }
}

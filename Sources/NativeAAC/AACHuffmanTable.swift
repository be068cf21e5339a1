/// A two-level lookup table that decodes one ``AACHuffmanCodebook``, built once at start-up.
///
/// The first level is indexed by the next ``rootBits`` bits of the stream. An entry there is either a
/// leaf (the index and its codeword length) or a link to a second-level table indexed by the bits after
/// the first ``rootBits`` (as many as the longest codeword under that prefix needs). Entries are packed
/// in one `UInt32` array: a leaf holds `index << 5 | length`; a link holds
/// `1 << 31 | offset << 5 | extraBits`. An empty entry (0: no codeword starts with those bits) means
/// impossible Huffman data.
public struct AACHuffmanTable: Sendable {
    /// The bits the first level looks at.
    public static let rootBits = 9
    /// The packed entries of both levels.
    @usableFromInline let entries: [UInt32]
    /// The longest codeword of the codebook.
    public let maximumLength: Int

    /// Builds the table of a codebook.
    /// - Parameter codebook: a prefix-free codebook (every annex 4.A codebook is).
    public init(_ codebook: AACHuffmanCodebook) {
        let root = Self.rootBits
        var entries = [UInt32](repeating: 0, count: 1 << root)
        maximumLength = codebook.maximumLength
        // The longest codeword under each root prefix, to size its second-level table.
        var longest = [Int](repeating: 0, count: 1 << root)
        for (code, length) in zip(codebook.codewords, codebook.lengths) where Int(length) > root {
            let prefix = Int(code >> UInt32(Int(length) - root))
            longest[prefix] = max(longest[prefix], Int(length))
        }
        for prefix in 0..<(1 << root) where longest[prefix] > 0 {
            let extra = longest[prefix] - root
            entries[prefix] = 1 << 31 | UInt32(entries.count) << 5 | UInt32(extra)
            entries += [UInt32](repeating: 0, count: 1 << extra)
        }
        for (index, (code, length)) in zip(codebook.codewords, codebook.lengths).enumerated() {
            let length = Int(length)
            let leaf = UInt32(index) << 5 | UInt32(length)
            if length <= root {
                let first = Int(code) << (root - length)
                for slot in first..<(first + (1 << (root - length))) { entries[slot] = leaf }
            } else {
                let link = entries[Int(code >> UInt32(length - root))]
                let extra = Int(link & 31)
                let base = Int((link >> 5) & 0x3FF_FFFF)
                let tail = Int(code) & ((1 << (length - root)) - 1)
                let first = tail << (extra - (length - root))
                for slot in first..<(first + (1 << (extra - (length - root)))) { entries[base + slot] = leaf }
            }
        }
        self.entries = entries
    }

    /// Decodes one codeword from the front of `window`.
    /// - Parameter window: the next 32 bits of the stream, first bit most significant (zeros past the end).
    /// - Returns: the codebook index and the codeword's length, or `nil` when no codeword starts with
    ///   these bits.
    @inlinable @inline(__always)
    public func decode(_ window: UInt32) -> (index: Int, length: Int)? {
        let root = UInt32(Self.rootBits)
        let first = entries[Int(window >> (32 - root))]
        if first & (1 << 31) == 0 {
            return first == 0 ? nil : (Int(first >> 5), Int(first & 31))
        }
        let extra = first & 31
        let base = Int((first >> 5) & 0x3FF_FFFF)
        let second = entries[base + Int((window << root) >> (32 - extra))]
        return second == 0 ? nil : (Int(second >> 5), Int(second & 31))
    }
}

/// One Huffman codebook of ISO/IEC 14496-3 annex 4.A as the specification prints it: for each index
/// (a scalefactor difference + 60, or a packed tuple of quantised spectral values), its codeword and
/// length. The decoder builds an ``AACHuffmanTable`` from it; an encoder writes ``codewords`` directly.
public struct AACHuffmanCodebook: Sendable {
    /// The codeword of each index, right-aligned (the last bit sent is bit 0).
    public let codewords: [UInt32]
    /// The length in bits of each index's codeword, 1 through 19.
    public let lengths: [UInt8]

    /// Creates a codebook.
    /// - Parameters:
    ///   - codewords: each index's codeword, right-aligned.
    ///   - lengths: each index's codeword length; as many as `codewords`.
    public init(codewords: [UInt32], lengths: [UInt8]) {
        precondition(codewords.count == lengths.count, "a codebook needs one length per codeword")
        self.codewords = codewords
        self.lengths = lengths
    }

    /// The longest codeword, in bits.
    public var maximumLength: Int { Int(lengths.max() ?? 0) }
}

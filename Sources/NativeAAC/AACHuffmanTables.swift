/// The decoding tables of every annex 4.A codebook, built once on first use.
enum AACHuffmanTables {
    /// The scalefactor codebook (Table 4.A.1).
    static let scalefactor = AACHuffmanTable(AACHuffmanCodebook.scalefactor)
    /// Spectral codebooks 1 through 11 (element 0 is codebook 1).
    static let spectral: [AACHuffmanTable] = AACHuffmanCodebook.spectral.map(AACHuffmanTable.init)
}

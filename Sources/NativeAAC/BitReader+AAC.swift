import Bitstream

extension BitReader {
    /// Reads `count` bits as an unsigned field (`uimsbf` of ISO/IEC 14496-3).
    /// - Parameters:
    ///   - count: 0 through 32.
    ///   - field: the syntax element's name.
    /// - Returns: the value.
    /// - Throws: ``NativeAACError/syntax(_:)`` naming the field when the data ends.
    @inlinable @inline(__always)
    mutating func aacBits(_ count: Int, _ field: StaticString) throws(NativeAACError) -> Int {
        do {
            return Int(try u(count, field))
        } catch {
            throw .syntax(error)
        }
    }

    /// Reads one flag bit.
    /// - Parameter field: the syntax element's name.
    /// - Returns: whether it is set.
    /// - Throws: ``NativeAACError/syntax(_:)`` naming the field when the data ends.
    @inlinable @inline(__always)
    mutating func aacFlag(_ field: StaticString) throws(NativeAACError) -> Bool {
        try aacBits(1, field) == 1
    }

    /// Decodes one Huffman codeword (ISO/IEC 14496-3 §4.6.3, annex 4.A).
    /// - Parameters:
    ///   - table: the codebook's decoding table.
    ///   - codebook: the codebook's name, for errors.
    /// - Returns: the codeword's index in the codebook.
    /// - Throws: ``NativeAACError/invalidHuffmanCode(codebook:bitOffset:)`` when no codeword matches,
    ///   ``NativeAACError/truncated(element:bitOffset:)`` when the data ends.
    @inlinable @inline(__always)
    mutating func aacHuffman(_ table: AACHuffmanTable, _ codebook: StaticString) throws(NativeAACError) -> Int {
        guard let window = peekBits(32) else { throw .truncated(element: "\(codebook)", bitOffset: bitPosition) }
        guard let (index, length) = table.decode(UInt32(truncatingIfNeeded: window)) else {
            throw .invalidHuffmanCode(codebook: "\(codebook)", bitOffset: bitPosition)
        }
        skipBits(length)
        return index
    }
}

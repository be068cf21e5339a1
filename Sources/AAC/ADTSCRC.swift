/// The CRC-16 of ADTS `crc_check` (ISO/IEC 13818-7 §6.2, §8.3 and ISO/IEC 14496-3 §1.A.3.2): generator
/// polynomial x¹⁶ + x¹⁵ + x² + 1 (0x8005), shift register initialised to all ones (0xFFFF), bits fed
/// most significant first, no reflection and no final inversion.
///
/// What the CRC covers:
/// - the 56 bits of `adts_fixed_header` + `adts_variable_header`;
/// - in a frame with several raw data blocks, the `raw_data_block_position[]` values too — and that
///   is all the header `crc_check` covers there (``ADTSHeader/verifyHeaderCRC()``);
/// - in a frame with one raw data block, the header bits and then parts of the `raw_data_block()`:
///   the first 192 bits of each `single_channel_element`, `lfe_channel_element` and
///   `coupling_channel_element` (counted after `id_syn_ele`), the first 192 bits of a
///   `channel_pair_element` up to the end of its first channel and the first 128 bits of its second
///   `individual_channel_stream`, and whole `program_config_element`s and `data_stream_element`s.
///   A region shorter than its fixed size is fed as if padded with zero bits. Finding these regions
///   needs the raw data block's syntax, so the caller names them (``Region``,
///   ``ADTSFrame/verifyCRC(protectedRegions:)``). The same rule applies to each block's
///   `adts_raw_data_block_error_check` in a multi-block frame.
public struct ADTSCRC: Hashable, Sendable {
    /// A stretch of a raw data block that the CRC protects.
    public struct Region: Hashable, Sendable {
        /// Where the stretch starts, in bits from the first bit of the raw data block.
        public var bitOffset: Int
        /// How many bits the syntax element really has from `bitOffset` on.
        public var bitCount: Int
        /// The fixed size of the protected region (192 or 128), or `nil` when the whole element is
        /// protected. Bits beyond it are not fed; missing bits up to it are fed as zeros.
        public var protectedBitCount: Int?

        /// Creates a protected region.
        /// - Parameters:
        ///   - bitOffset: where the element's protected part starts, in bits from the start of the raw
        ///     data block.
        ///   - bitCount: the element's length in bits from `bitOffset`.
        ///   - protectedBitCount: 192 or 128 for a fixed-size region, `nil` for the whole element.
        public init(bitOffset: Int, bitCount: Int, protectedBitCount: Int? = nil) {
            self.bitOffset = bitOffset
            self.bitCount = bitCount
            self.protectedBitCount = protectedBitCount
        }
    }

    /// The generator polynomial without its x¹⁶ term.
    public static let polynomial: UInt16 = 0x8005
    /// The initial register value.
    public static let initialValue: UInt16 = 0xFFFF

    private static let table: [UInt16] = (0..<256).map { (byte: Int) -> UInt16 in
        var crc = UInt16(byte) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ polynomial : crc << 1
        }
        return crc
    }

    /// The register: the CRC of everything fed so far.
    public private(set) var value: UInt16

    /// Creates a register holding ``initialValue``.
    public init() { value = Self.initialValue }

    /// Feeds one whole byte, most significant bit first.
    /// - Parameter byte: the byte.
    @inlinable
    public mutating func update(byte: UInt8) {
        update(bits: UInt64(byte), count: 8)
    }

    /// Feeds whole bytes.
    /// - Parameter bytes: the bytes, in order.
    public mutating func update<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        var crc = value
        for byte in bytes {
            crc = (crc << 8) ^ Self.table[Int((crc >> 8) ^ UInt16(byte))]
        }
        value = crc
    }

    /// Feeds the low `count` bits of `bits`, most significant first.
    /// - Parameters:
    ///   - bits: the bits; bits above `count` are ignored.
    ///   - count: 0 through 64.
    public mutating func update(bits: UInt64, count: Int) {
        var crc = value
        var remaining = max(0, min(count, 64))
        while remaining > 0 {
            remaining -= 1
            let bit = UInt16(truncatingIfNeeded: bits >> UInt64(remaining)) & 1
            let top = crc >> 15
            crc <<= 1
            if bit ^ top == 1 { crc ^= Self.polynomial }
        }
        value = crc
    }

    /// Feeds `count` zero bits.
    /// - Parameter count: how many zero bits.
    public mutating func update(zeroBitCount count: Int) {
        var remaining = count
        while remaining >= 64 {
            update(bits: 0, count: 64)
            remaining -= 64
        }
        update(bits: 0, count: remaining)
    }

    /// Feeds a run of bits taken from a byte buffer.
    ///
    /// Bits past the end of `bytes` are fed as zeros (so a truncated element cannot trap).
    /// - Parameters:
    ///   - bytes: the buffer.
    ///   - bitOffset: the first bit to feed, counted from the first bit of `bytes`.
    ///   - bitCount: how many bits to feed.
    public mutating func update<Bytes: RandomAccessCollection>(bitsOf bytes: Bytes, bitOffset: Int, bitCount: Int)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard bitCount > 0, bitOffset >= 0 else { return }
        let available = max(0, min(bitCount, bytes.count * 8 - bitOffset))
        var position = bitOffset
        let end = bitOffset + available
        // Leading bits up to a byte boundary, then whole bytes through the table, then the tail.
        while position < end && position & 7 != 0 {
            feedBit(of: bytes, at: position)
            position += 1
        }
        let wholeBytes = (end - position) / 8
        if wholeBytes > 0 {
            let first = bytes.startIndex + position / 8
            update(bytes: bytes[first..<(first + wholeBytes)])
            position += wholeBytes * 8
        }
        while position < end {
            feedBit(of: bytes, at: position)
            position += 1
        }
        update(zeroBitCount: bitCount - available)
    }

    private mutating func feedBit<Bytes: RandomAccessCollection>(of bytes: Bytes, at position: Int)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let byte = bytes[bytes.startIndex + position / 8]
        update(bits: UInt64(byte >> UInt8(7 - position & 7)), count: 1)
    }

    /// Computes the CRC-16 of whole bytes from ``initialValue``.
    /// - Parameter bytes: the bytes.
    /// - Returns: the CRC.
    public static func checksum<Bytes: Sequence>(of bytes: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        var crc = ADTSCRC()
        crc.update(bytes: bytes)
        return crc.value
    }
}

import Bitstream

/// A run of bits kept as coded, for syntax this module does not interpret (for example
/// `vps_extension()` data or the multilayer, 3D and SCC extensions of an SPS or PPS).
///
/// Keeping the bits makes parse → write byte-identical even for extensions that are not parsed.
/// The run holds everything from its start up to, not including, the `rbsp_stop_one_bit`.
public struct HEVCRawBits: Sendable, Hashable {
    /// The bits, most significant first; the last byte is padded with zero bits.
    public var bytes: [UInt8]
    /// The number of valid bits in ``bytes``.
    public var bitCount: Int

    /// Creates a run of bits.
    /// - Parameters:
    ///   - bytes: the bits, most significant first.
    ///   - bitCount: how many bits of `bytes` are valid; at most `bytes.count * 8`.
    public init(bytes: [UInt8] = [], bitCount: Int = 0) {
        self.bytes = bytes
        self.bitCount = max(0, min(bitCount, bytes.count * 8))
    }

    /// Whether the run holds no bits.
    public var isEmpty: Bool { bitCount == 0 }

    /// Reads every bit from the reader's position up to the `rbsp_stop_one_bit`.
    /// - Parameters:
    ///   - reader: the reader; left at the stop bit.
    ///   - field: the syntax element's name, used in the error.
    /// - Throws: ``SyntaxError`` if there is no stop bit after the position.
    public init(readingUpToStopBitFrom reader: inout BitReader, field: StaticString) throws(SyntaxError) {
        guard let stop = reader.positionOfLastOneBit(), stop >= reader.bitPosition else {
            throw SyntaxError(field: "\(field)", bitOffset: reader.bitPosition, reason: .invalid("no rbsp_stop_one_bit follows"))
        }
        var writer = BitWriter()
        var left = stop - reader.bitPosition
        while left > 0 {
            let take = min(left, 32)
            writer.writeBits(UInt64(try reader.u(take, field)), count: take)
            left -= take
        }
        self.init(bytes: writer.bytes, bitCount: writer.bitCount)
    }

    /// Appends the bits to a writer.
    /// - Parameter writer: the destination.
    public func write(to writer: inout BitWriter) {
        var reader = BitReader(bytes)
        var left = bitCount
        while left > 0 {
            let take = min(left, 32)
            guard let chunk = reader.readBits(take) else { return }
            writer.writeBits(chunk, count: take)
            left -= take
        }
    }
}

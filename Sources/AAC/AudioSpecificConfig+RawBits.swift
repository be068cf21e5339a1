import Bitstream

extension AudioSpecificConfig {
    /// Bits kept as they are: the part of a configuration this module does not interpret (the
    /// specific configuration of a non-AAC object type, `ErrorProtectionSpecificConfig`, data after the
    /// last element), so that writing the configuration back reproduces the input bit for bit.
    public struct RawBits: Hashable, Sendable, CustomStringConvertible {
        /// The bits, most significant first; the last byte is padded with zero bits.
        public private(set) var bytes: [UInt8]
        /// How many bits are meaningful.
        public private(set) var count: Int

        /// No bits.
        public init() {
            bytes = []
            count = 0
        }

        /// Takes `count` bits from a byte array.
        /// - Parameters:
        ///   - bytes: the bits, most significant first.
        ///   - count: how many of them count; at most `bytes.count * 8`, clamped to it.
        public init(bytes: [UInt8], count: Int) {
            let count = max(0, min(count, bytes.count * 8))
            var trimmed = Array(bytes.prefix((count + 7) / 8))
            if count & 7 != 0, let last = trimmed.indices.last {
                trimmed[last] &= ~UInt8(0xFF >> (count & 7))
            }
            self.bytes = trimmed
            self.count = count
        }

        /// Reads everything left in `reader`.
        /// - Parameter reader: the reader; it ends at the end of its data.
        init(remainderOf reader: inout BitReader) {
            var writer = BitWriter()
            while reader.bitsRemaining > 0 {
                let take = min(32, reader.bitsRemaining)
                writer.writeBits(reader.readBits(take) ?? 0, count: take)
            }
            self.init(bytes: writer.bytes, count: writer.bitCount)
        }

        /// Whether there are no bits.
        public var isEmpty: Bool { count == 0 }

        /// Whether every bit is zero.
        public var isAllZero: Bool { bytes.allSatisfy { $0 == 0 } }

        /// Appends the bits to a writer.
        /// - Parameter writer: the destination.
        func write(to writer: inout BitWriter) {
            var left = count
            for byte in bytes where left > 0 {
                let take = min(8, left)
                writer.writeBits(UInt64(byte >> UInt8(8 - take)), count: take)
                left -= take
            }
        }

        /// The bit count and the bytes in hexadecimal.
        public var description: String {
            "\(count) bits: " + bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }
}

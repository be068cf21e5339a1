/// The CRC of PSI sections: CRC-32/MPEG-2 (ISO/IEC 13818-1 Annex A, Table A.1 — generator 0x04C11DB7, the
/// register starting at all ones, no reflection, no final inversion). A whole section including its `CRC_32`
/// field checks to zero (§2.4.4.10, §2.4.4.11).
public enum TSCRC32 {
    /// The table for one byte at a time, made once.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }

    /// The CRC of some bytes (Annex A).
    /// - Parameter bytes: a section without its `CRC_32`, or with it (then the result is 0 when intact).
    /// - Returns: the CRC register after the bytes.
    public static func checksum<Bytes: Sequence>(of bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))] }
        return crc
    }
}

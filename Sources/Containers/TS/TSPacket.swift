/// The fixed facts of a transport stream packet (ISO/IEC 13818-1 §2.4.3.2, Table 2-2).
public enum TSPacket {
    /// The length of a packet: 188 bytes. The 192-byte (M2TS, a 4-byte timecode before each packet) and 204-byte
    /// (Reed–Solomon parity after each packet) variants are refused: their files do not resynchronise at 188.
    public static let size = 188
    /// `sync_byte`, the first byte of every packet.
    public static let syncByte: UInt8 = 0x47
    /// The PID of the program association table (§2.4.4.3).
    public static let programAssociationPID: UInt16 = 0x0000
    /// The PID of null packets (Table 2-3), which carry nothing.
    public static let nullPID: UInt16 = 0x1FFF
    /// The modulus of PTS, DTS and PCR base: 2^33 ticks of 90 kHz (§2.4.3.7).
    public static let timestampModulus: Int64 = 1 << 33
}

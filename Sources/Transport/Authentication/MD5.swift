#if canImport(Glibc)
import Glibc
#endif

/// The MD5 message digest (RFC 1321), for HTTP/RTSP Digest authentication (RFC 2617, RFC 7616 `MD5`) — written
/// here because Foundation on Linux has no CryptoKit. Not for anything that needs collision resistance.
public struct MD5: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
    private var block = [UInt8](repeating: 0, count: 64)
    private var blockCount = 0
    private var totalLength: UInt64 = 0

    /// A digest with nothing hashed yet.
    public init() {}

    /// Hashes more bytes (RFC 1321 §3.4).
    /// - Parameter bytes: the next bytes.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            block[blockCount] = byte
            blockCount += 1
            totalLength &+= 1
            if blockCount == 64 {
                compress()
                blockCount = 0
            }
        }
    }

    /// Pads and finishes (RFC 1321 §3.1–3.2, §3.5).
    /// - Returns: the 16-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        update([0x80])
        while blockCount != 56 { update([0]) }
        for index in 0..<8 { update([UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))]) }
        var digest: [UInt8] = []
        digest.reserveCapacity(16)
        for word in [state.0, state.1, state.2, state.3] {
            for index in 0..<4 { digest.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(index)))) }
        }
        return digest
    }

    /// The digest of `bytes`.
    /// - Parameter bytes: the message.
    /// - Returns: 16 bytes.
    public static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var md5 = MD5()
        md5.update(bytes)
        return md5.finalize()
    }

    /// The digest of the UTF-8 of `text` as 32 lowercase hex digits (how Digest authentication writes it).
    /// - Parameter text: the message.
    /// - Returns: for example `d41d8cd98f00b204e9800998ecf8427e` for the empty string.
    public static func hexDigest(_ text: String) -> String {
        hex(digest(text.utf8))
    }

    /// Lowercase hex of bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]

    /// T[i] = floor(2^32 × |sin(i + 1)|) (RFC 1321 §3.4).
    private static let table: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296.0)) }

    private mutating func compress() {
        var words = [UInt32](repeating: 0, count: 16)
        for index in 0..<16 {
            words[index] = UInt32(block[4 * index]) | UInt32(block[4 * index + 1]) << 8
                | UInt32(block[4 * index + 2]) << 16 | UInt32(block[4 * index + 3]) << 24
        }
        var (a, b, c, d) = state
        for index in 0..<64 {
            var f: UInt32
            let g: Int
            switch index {
            case 0..<16: f = (b & c) | (~b & d); g = index
            case 16..<32: f = (d & b) | (~d & c); g = (5 * index + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * index + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * index) % 16
            }
            f = f &+ a &+ Self.table[index] &+ words[g]
            a = d
            d = c
            c = b
            b = b &+ (f << Self.shifts[index] | f >> (32 - Self.shifts[index]))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}

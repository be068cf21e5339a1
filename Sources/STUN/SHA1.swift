/// SHA-1 (FIPS 180-4 §6.1) and HMAC-SHA1 (RFC 2104), for STUN's MESSAGE-INTEGRITY (RFC 8489 §14.5) — written here
/// because Foundation on Linux has no CryptoKit and layer 4 links no C library.
public enum SHA1 {
    /// The digest of `bytes` (20 bytes).
    /// - Parameter bytes: the message.
    /// - Returns: the digest.
    public static func hash<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        // §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the length in bits as 64 bits.
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var schedule = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let base = blockStart + index * 4
                schedule[index] = UInt32(message[base]) << 24 | UInt32(message[base + 1]) << 16
                    | UInt32(message[base + 2]) << 8 | UInt32(message[base + 3])
            }
            for index in 16..<80 {
                schedule[index] = rotate(schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16], 1)
            }
            var (a, b, c, d, e) = state
            // §6.1.2 step 3 with the functions and constants of §4.1.1 and §4.2.1.
            for index in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch index {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = rotate(a, 5) &+ f &+ e &+ k &+ schedule[index]
                e = d
                d = c
                c = rotate(b, 30)
                b = a
                a = temp
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift: UInt32 in [24, 16, 8, 0] { digest.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return digest
    }

    /// HMAC-SHA1 (RFC 2104 §2, block size 64): the 20-byte code of `message` under `key`.
    /// - Parameters:
    ///   - key: the key (hashed first when longer than 64 bytes).
    ///   - message: the message.
    /// - Returns: the code.
    public static func hmac<Bytes: Collection>(key: [UInt8], message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = hash(block.map { $0 ^ 0x36 } + Array(message))
        return hash(block.map { $0 ^ 0x5C } + inner)
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}

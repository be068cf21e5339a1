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

    /// Hashes more bytes (RFC 1321 §3.4): whole 64-byte blocks straight from the caller's memory.
    /// - Parameter bytes: the next bytes.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(contiguous: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update(contiguous: $0) }
        }
    }

    private mutating func update(contiguous input: UnsafeRawBufferPointer) {
        var offset = 0
        totalLength &+= UInt64(input.count)
        if blockCount > 0 {
            let taken = min(64 - blockCount, input.count)
            for index in 0..<taken { block[blockCount + index] = input[index] }
            blockCount += taken
            offset = taken
            guard blockCount == 64 else { return }
            block.withUnsafeBytes { compress($0) }
            blockCount = 0
        }
        while input.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + 64)]))
            offset += 64
        }
        for index in offset..<input.count { block[index - offset] = input[index] }
        blockCount = input.count - offset
    }

    /// Pads and finishes (RFC 1321 §3.1–3.2, §3.5).
    /// - Returns: the 16-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        var padding: [UInt8] = [0x80]
        padding += [UInt8](repeating: 0, count: (119 - blockCount) % 64)
        for index in 0..<8 { padding.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(index)))) }
        padding.withUnsafeBytes { update(contiguous: $0) }
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

    /// Bytes as lowercase hex digits, two per byte (how Digest authentication writes a digest).
    /// - Parameter bytes: the bytes.
    /// - Returns: the hex text.
    public static func hex(_ bytes: [UInt8]) -> String {
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

    /// One 64-byte block (RFC 1321 §3.4).
    private mutating func compress(_ chunk: UnsafeRawBufferPointer) {
        var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                    UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: chunk) }
        // The words are little-endian (RFC 1321 §2); this machine's order is fixed at compile time.
        let word: (Int) -> UInt32 = { index in
            withUnsafeBytes(of: words) { UInt32(littleEndian: $0.load(fromByteOffset: 4 * index, as: UInt32.self)) }
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
            f = f &+ a &+ Self.table[index] &+ word(g)
            a = d
            d = c
            c = b
            b = b &+ (f << Self.shifts[index] | f >> (32 - Self.shifts[index]))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}

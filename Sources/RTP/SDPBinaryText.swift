/// Base64 (RFC 4648 §4) and hexadecimal text, the two ways SDP format parameters carry binary data:
/// `sprop-parameter-sets` / `sprop-sps` in base64, the mpeg4-generic `config` in hex.
enum SDPBinaryText {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text of `bytes`, with `=` padding.
    static func base64(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for slot in 0..<4 {
                output.append(slot <= count ? alphabet[Int((group >> (18 - 6 * slot)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 text; padding may be left out (some cameras do). `nil` on any other character,
    /// on a lone trailing character, or on non-zero bits after the last byte.
    static func bytes(base64 text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var group: UInt32 = 0, count = 0, padding = 0
        for character in text.utf8 {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): padding += 1; continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            group = group << 6 | value
            count += 1
            if count == 4 {
                output += [UInt8(group >> 16), UInt8(truncatingIfNeeded: group >> 8), UInt8(truncatingIfNeeded: group)]
                group = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2:
            guard group & 0xF == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            guard group & 0x3 == 0 else { return nil }
            output += [UInt8(truncatingIfNeeded: group >> 10), UInt8(truncatingIfNeeded: group >> 2)]
        default: return nil
        }
        guard padding <= 2 else { return nil }
        return output
    }

    /// Lower-case hexadecimal text of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of hexadecimal text (either case); `nil` on an odd length or a non-hex character.
    static func bytes(hex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            output.append(high << 4 | low)
            index += 2
        }
        return output
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The NAL units of a comma-separated base64 list (`sprop-parameter-sets`, `sprop-sps` …).
    /// - Throws: ``SDPError/invalidParameter(name:value:reason:)`` naming the entry that is not base64.
    static func nalUnits(_ text: String, parameter: String) throws(SDPError) -> [[UInt8]] {
        var units: [[UInt8]] = []
        for (index, entry) in text.split(separator: ",").enumerated() {
            let trimmed = entry.trimmingSDPSpaces
            if trimmed.isEmpty { continue }
            guard let bytes = bytes(base64: trimmed), !bytes.isEmpty else {
                throw .invalidParameter(name: parameter, value: String(trimmed), reason: "entry \(index) is not base64")
            }
            units.append(bytes)
        }
        return units
    }
}

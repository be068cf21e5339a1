/// `%XX` escapes (RFC 3986 §2.1): decoding the percent-encoded octets of a URL component.
enum PercentDecoding {
    /// Decodes every `%XX` (two hexadecimal digits, either case) into its octet; other characters stay as they are.
    /// - Parameter text: the component as it stands in the URL.
    /// - Returns: the decoded text (octets that are not UTF-8 read as U+FFFD), or `nil` when a `%` is not followed
    ///   by two hexadecimal digits.
    static func decode(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of one hexadecimal digit (RFC 3986 §2.1 `HEXDIG`, either case), `nil` for any other octet.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

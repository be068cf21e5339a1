/// Hexadecimal text ⇄ bytes for test vectors copied from RFCs (spaces and line breaks ignored).
public enum Hex {
    /// The bytes of hexadecimal text; whitespace is skipped.
    /// - Parameter text: for example `"8040 f17b"`.
    /// - Returns: the bytes (an odd trailing digit is dropped; a non-hex character counts as 0).
    public static func bytes(_ text: String) -> [UInt8] {
        let digits = text.unicodeScalars.filter { !$0.properties.isWhitespace }.map { scalar -> UInt8 in
            UInt8(Int(String(scalar), radix: 16) ?? 0)
        }
        return stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// Bytes as lowercase hexadecimal text.
    /// - Parameter bytes: the bytes.
    /// - Returns: the text.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(($0 >> 4), radix: 16) + String($0 & 0x0F, radix: 16) }.joined()
    }
}

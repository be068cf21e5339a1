/// The `auth-param` list of a challenge or credentials (RFC 7235 §2.1, RFC 2617 §1.2):
/// `name=token` or `name="quoted string"`, comma-separated, with `\` escapes inside quotes.
struct AuthenticationParameters {
    /// Names (lowercased) and values, in order.
    private(set) var pairs: [(name: String, value: String)] = []

    /// The longest text parsed.
    static let maximumLength = 4096

    /// Parses the text after the scheme name.
    /// - Parameters:
    ///   - text: the parameters.
    ///   - header: the header name, for errors.
    /// - Throws: ``RTSPHeaderError`` for an unterminated quote, a missing `=`, or a too-long value.
    init(parsing text: Substring, header: String) throws(RTSPHeaderError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(header: header, limit: Self.maximumLength) }
        let bytes = Array(text.utf8)
        var index = 0
        func skipSpaceAndCommas() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
        skipSpaceAndCommas()
        while index < bytes.count {
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ","), bytes[index] != 0x20 { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw .malformedParameter(header: header, parameter: name, reason: "no '=' after the parameter name")
            }
            index += 1
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            var value: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                var closed = false
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        value.append(bytes[index + 1])
                        index += 2
                        continue
                    }
                    index += 1
                    if byte == UInt8(ascii: "\"") { closed = true; break }
                    value.append(byte)
                }
                guard closed else { throw .malformedParameter(header: header, parameter: name, reason: "unterminated quoted string") }
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != 0x20 {
                    value.append(bytes[index])
                    index += 1
                }
            }
            pairs.append((name, String(decoding: value, as: UTF8.self)))
            skipSpaceAndCommas()
        }
    }

    /// The value of a parameter (name in any case), or `nil`.
    subscript(name: String) -> String? {
        let key = name.lowercased()
        return pairs.first { $0.name == key }?.value
    }

    /// `"text"` with `\` before `"` and `\`.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for character in text {
            if character == "\"" || character == "\\" { output.append("\\") }
            if character == "\r" || character == "\n" { continue }
            output.append(character)
        }
        return output + "\""
    }

    /// Splits `Scheme rest` into the scheme (lowercased) and the rest.
    static func scheme(of value: String) -> (scheme: String, rest: Substring) {
        let trimmed = value.trimmingRTSPWhitespace()
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (trimmed.lowercased(), "") }
        return (trimmed[..<space].lowercased(), trimmed[space...].trimmingRTSPWhitespace())
    }
}

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
                        guard !Self.isControl(bytes[index + 1]) else {
                            throw .malformedParameter(header: header, parameter: name, reason: "a control character in a quoted string")
                        }
                        value.append(bytes[index + 1])
                        index += 2
                        continue
                    }
                    index += 1
                    if byte == UInt8(ascii: "\"") { closed = true; break }
                    // RFC 7230 §3.2.6: qdtext is HTAB, SP and visible characters; a control character (CR, LF,
                    // NUL…) inside a quoted string is malformed, and could not be written back as it was.
                    guard !Self.isControl(byte) else {
                        throw .malformedParameter(header: header, parameter: name, reason: "a control character in a quoted string")
                    }
                    value.append(byte)
                }
                guard closed else { throw .malformedParameter(header: header, parameter: name, reason: "unterminated quoted string") }
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != 0x20, bytes[index] != 0x09 {
                    // A token (RFC 7230 §3.2.6) holds no quote and no control character.
                    guard !Self.isControl(bytes[index]), bytes[index] != UInt8(ascii: "\"") else {
                        throw .malformedParameter(header: header, parameter: name, reason: "a character a token cannot hold")
                    }
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

    /// Whether `byte` is a control character other than HTAB (RFC 5234 CTL).
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// `text` as it is when it is a token (RFC 7230 §3.2.6 tchar only), else as a quoted string — so that a value
    /// parsed from either form is written back in a form that parses to the same value.
    static func tokenOrQuoted(_ text: String) -> String {
        let tokenCharacters = Set("!#$%&'*+-.^_`|~".utf8)
        let isToken = !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || tokenCharacters.contains(byte)
        }
        return isToken ? text : quoted(text)
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

// Reading a session description (RFC 8866 §5): lines of `<type>=<value>`, session lines first, then
// `m=` sections. Strict on structure (v=0 first, one o= and s=, well-formed fields), lenient where deployed
// writers differ: bare LF line ends, blank lines, a missing o=, s= or t= (some IP cameras leave them out),
// and any order of the session lines before the first m=.

extension SessionDescription {
    /// Reads a session description from text.
    /// - Parameter text: the description, CRLF or LF line ends.
    /// - Throws: ``SDPError`` naming the line that is wrong, or a cap that was exceeded.
    public init(parsing text: String) throws(SDPError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Reads a session description from bytes (UTF-8, as RFC 8866 §5 says).
    /// - Parameter bytes: the description, CRLF or LF line ends, at most ``maximumByteCount`` bytes.
    /// - Throws: ``SDPError`` naming the line that is wrong, or a cap that was exceeded.
    public init<Bytes: Collection>(parsing input: Bytes) throws(SDPError) where Bytes.Element == UInt8 {
        guard input.count <= Self.maximumByteCount else {
            throw .tooLarge(byteCount: input.count, limit: Self.maximumByteCount)
        }
        let bytes = Array(input)
        self.init(origin: nil, sessionName: "", timings: [])
        var reader = SDPLineReader()
        var lineNumber = 0
        var lineStart = bytes.startIndex
        var sawVersion = false, sawName = false
        var index = bytes.startIndex
        while lineStart != bytes.endIndex {
            while index != bytes.endIndex, bytes[index] != 0x0A { index = index + 1 }
            lineNumber += 1
            guard lineNumber <= Self.maximumLineCount else {
                throw .tooMany(what: "lines", limit: Self.maximumLineCount)
            }
            var lineBytes = bytes[lineStart..<index]
            if lineBytes.last == 0x0D { lineBytes = lineBytes.dropLast() }
            if index != bytes.endIndex { index = index + 1 }
            lineStart = index
            guard !lineBytes.contains(0), let line = String(validating: lineBytes, as: UTF8.self) else {
                throw .invalidText(line: lineNumber)
            }
            if line.trimmingSDPSpaces.isEmpty { continue }
            let characters = Array(line.prefix(2))
            guard characters.count == 2, characters[1] == "=", let type = characters.first, type.isASCII, type.isLetter else {
                throw .malformedLine(line: lineNumber, text: line)
            }
            let value = line.dropFirst(2)
            if !sawVersion {
                guard type == "v", value.trimmingSDPSpaces == "0" else { throw .missingVersion(line: lineNumber) }
                sawVersion = true
                continue
            }
            if type == "s" {
                guard media.isEmpty else { throw .malformedLine(line: lineNumber, text: line) }
                guard !sawName else { throw .duplicateLine(line: lineNumber, type: "s") }
                sawName = true
                sessionName = String(value)
                continue
            }
            try reader.read(type: type, value: value, line: lineNumber, into: &self)
        }
        guard sawVersion else { throw .missingVersion(line: max(lineNumber, 1)) }
    }
}

/// The state of a reader between lines: which section the next line belongs to.
struct SDPLineReader {
    /// The most attributes in one section.
    static let maximumAttributeCount = 512

    /// Reads one line other than `v=` and `s=` into the description.
    /// - Parameters:
    ///   - type: the line's letter.
    ///   - value: the text after `=`.
    ///   - line: the line number.
    ///   - description: the description being built.
    /// - Throws: ``SDPError`` for a malformed field.
    mutating func read(type: Character, value: Substring, line: Int, into description: inout SessionDescription) throws(SDPError) {
        if type == "m" {
            guard description.media.count < SessionDescription.maximumMediaCount else {
                throw .tooMany(what: "media sections", limit: SessionDescription.maximumMediaCount)
            }
            description.media.append(try SDPMediaDescription(parsing: value, line: line))
            return
        }
        if description.media.isEmpty {
            try readSessionLine(type: type, value: value, line: line, into: &description)
        } else {
            try readMediaLine(type: type, value: value, line: line, into: &description.media[description.media.count - 1])
        }
    }

    private func readSessionLine(type: Character, value: Substring, line: Int,
                                 into description: inout SessionDescription) throws(SDPError) {
        switch type {
        case "o":
            guard description.origin == nil else { throw .duplicateLine(line: line, type: "o") }
            let fields = value.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 6 else { throw .invalidField(line: line, field: "o=", value: String(value)) }
            description.origin = SDPOrigin(username: String(fields[0]), sessionID: String(fields[1]),
                                           sessionVersion: String(fields[2]), networkType: String(fields[3]),
                                           addressType: String(fields[4]), unicastAddress: String(fields[5]))
        case "i":
            guard description.information == nil else { throw .duplicateLine(line: line, type: "i") }
            description.information = String(value)
        case "u":
            guard description.uri == nil else { throw .duplicateLine(line: line, type: "u") }
            description.uri = String(value)
        case "e": description.emails.append(String(value))
        case "p": description.phoneNumbers.append(String(value))
        case "c":
            guard description.connection == nil else { throw .duplicateLine(line: line, type: "c") }
            description.connection = try SDPConnection(parsing: value, line: line)
        case "b": description.bandwidths.append(try SDPBandwidth(parsing: value, line: line))
        case "t": description.timings.append(try SDPTiming(parsing: value, line: line))
        case "r":
            guard !description.timings.isEmpty else { throw .invalidField(line: line, field: "r= before any t=", value: String(value)) }
            description.timings[description.timings.count - 1].repeatTimes.append(String(value))
        case "a":
            guard description.attributes.count < Self.maximumAttributeCount else {
                throw .tooMany(what: "session attributes", limit: Self.maximumAttributeCount)
            }
            description.attributes.append(try Self.attribute(value, line: line))
        default:
            guard description.otherLines.count < Self.maximumAttributeCount else {
                throw .tooMany(what: "session lines", limit: Self.maximumAttributeCount)
            }
            description.otherLines.append(SDPLine(type: type, value: String(value)))
        }
    }

    private func readMediaLine(type: Character, value: Substring, line: Int,
                               into media: inout SDPMediaDescription) throws(SDPError) {
        switch type {
        case "i":
            guard media.information == nil else { throw .duplicateLine(line: line, type: "i") }
            media.information = String(value)
        case "c":
            guard media.connections.count < 16 else { throw .tooMany(what: "c= lines in one section", limit: 16) }
            media.connections.append(try SDPConnection(parsing: value, line: line))
        case "b": media.bandwidths.append(try SDPBandwidth(parsing: value, line: line))
        case "a":
            guard media.attributes.count < Self.maximumAttributeCount else {
                throw .tooMany(what: "attributes in one media section", limit: Self.maximumAttributeCount)
            }
            media.attributes.append(try Self.attribute(value, line: line))
        default:
            guard media.otherLines.count < Self.maximumAttributeCount else {
                throw .tooMany(what: "lines in one media section", limit: Self.maximumAttributeCount)
            }
            media.otherLines.append(SDPLine(type: type, value: String(value)))
        }
        guard media.bandwidths.count <= 16 else { throw .tooMany(what: "b= lines in one section", limit: 16) }
    }

    /// Reads `<name>[:<value>]` and checks the syntax of the attributes this module interprets
    /// (`rtpmap`, `fmtp`), so that their errors name the line.
    static func attribute(_ text: Substring, line: Int) throws(SDPError) -> SDPAttribute {
        let attribute: SDPAttribute
        if let colon = text.firstIndex(of: ":") {
            attribute = SDPAttribute(String(text[..<colon]), String(text[text.index(after: colon)...]))
        } else {
            attribute = SDPAttribute(String(text))
        }
        guard !attribute.name.isEmpty, !attribute.name.contains(" ") else {
            throw .invalidField(line: line, field: "attribute name", value: String(text))
        }
        switch attribute.name.lowercased() {
        case "rtpmap":
            guard SDPRTPMap(attributeValue: attribute.value ?? "") != nil else {
                throw .invalidField(line: line, field: "a=rtpmap", value: attribute.value ?? "")
            }
        case "fmtp":
            guard SDPFormatParameters.split(attributeValue: attribute.value ?? "") != nil else {
                throw .invalidField(line: line, field: "a=fmtp", value: attribute.value ?? "")
            }
        default: break
        }
        return attribute
    }
}

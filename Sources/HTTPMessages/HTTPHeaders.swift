/// The header fields of an HTTP message (RFC 9110 §5, RFC 9112 §5), in the order written; names compare without case.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Hashable, Sendable {
        /// The name as written, for example `Content-Type`.
        public var name: String
        /// The value, without surrounding white space.
        public var value: String

        /// A field.
        /// - Parameters:
        ///   - name: the name.
        ///   - value: the value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// Fields from a literal, in its order: `["Host": "example.com", "Accept": "*/*"]`.
    /// - Parameter elements: names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for a name (any case), or `nil`.
    /// - Parameter name: the header name.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value for a name (any case), in order (for example several `Link` fields).
    /// - Parameter name: the header name.
    /// - Returns: the values.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Adds a field after the others (a name may appear several times).
    /// - Parameters:
    ///   - name: the name.
    ///   - value: the value.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Sets a name to one value: replaces the first field of that name and removes the rest, or appends.
    /// - Parameters:
    ///   - name: the name.
    ///   - value: the value.
    public mutating func set(_ name: String, _ value: String) {
        var replaced = false
        fields = fields.compactMap { field in
            guard Self.sameName(field.name, name) else { return field }
            if replaced { return nil }
            replaced = true
            return Field(name: field.name, value: value)
        }
        if !replaced { append(name, value) }
    }

    /// Removes every field of a name.
    /// - Parameter name: the name.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// How many fields there are.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    /// - Returns: the iterator.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    static func sameName(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count
            && zip(left.utf8, right.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}

extension HTTPHeaders {
    /// RFC 9112 §9.3: persistence from the version and the `Connection` field's options.
    static func keepsAlive(version: String, connection: String?) -> Bool {
        let options = (connection ?? "").split(separator: ",").map { $0.trimmingHTTPWhitespace().lowercased() }
        if options.contains("close") { return false }
        if version == "HTTP/1.0" { return options.contains("keep-alive") }
        return true
    }

    /// Writes a start line, the fields and the empty line, then the body; a value never carries a line break into
    /// the output (no header injection from caller-given text).
    static func serialize(startLine: String, headers: HTTPHeaders, body: [UInt8]) -> [UInt8] {
        var text = startLine + "\r\n"
        for field in headers { text += "\(clean(field.name)): \(clean(field.value))\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)
        bytes.append(contentsOf: body)
        return bytes
    }

    /// The text with CR and LF replaced by spaces.
    static func clean(_ text: String) -> String {
        text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A })
            ? String(decoding: text.utf8.map { $0 == 0x0D || $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self) : text
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (RFC 9110 §5.6.3 OWS).
    func trimmingHTTPWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

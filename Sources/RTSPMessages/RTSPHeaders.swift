/// The header fields of an RTSP message (RFC 2326 §4.2, §12), in the order written; names compare without case.
public struct RTSPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Hashable, Sendable {
        /// The name as written, for example `CSeq`.
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

    /// Fields from a literal, in its order: `["CSeq": "1", "Session": "12345678"]`.
    /// - Parameter elements: names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for a name (any case), or `nil`.
    /// - Parameter name: the header name.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value for a name (any case), in order (for example several `WWW-Authenticate` challenges).
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

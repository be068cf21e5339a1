/// An `a=` line (RFC 8866 §5.13): a property (`a=recvonly`, no value) or a value attribute
/// (`a=rtpmap:96 H264/90000`). Attributes this module does not interpret are kept as written.
public struct SDPAttribute: Sendable, Hashable {
    /// The attribute name, before the colon.
    public var name: String
    /// The text after the colon; `nil` for a property attribute.
    public var value: String?

    /// Creates an attribute.
    /// - Parameters:
    ///   - name: the name, for example `rtpmap`.
    ///   - value: the value, or `nil` for a property attribute.
    public init(_ name: String, _ value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// The line's value: `name` or `name:value`.
    public var text: String {
        guard let value else { return name }
        return "\(name):\(value)"
    }
}

/// A line of a type this module does not interpret (`k=`, `z=`, or a letter RFC 8866 does not define),
/// kept so that the description is written back as it was read.
public struct SDPLine: Sendable, Hashable {
    /// The one-letter type.
    public var type: Character
    /// The text after `=`.
    public var value: String

    /// Creates a line.
    /// - Parameters:
    ///   - type: the one-letter type.
    ///   - value: the text after `=`.
    public init(type: Character, value: String) {
        self.type = type
        self.value = value
    }
}

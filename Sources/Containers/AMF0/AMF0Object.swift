/// One property of an AMF0 object or ECMA array: a key and its value (AMF0 specification, §2.5
/// `object-property = (UTF-8 value-type)`).
public struct AMF0Property: Sendable, Hashable {
    /// The property's name.
    public var key: String
    /// The property's value.
    public var value: AMF0Value

    /// Creates a property.
    /// - Parameters:
    ///   - key: the name (at most 65 535 bytes of UTF-8, the width of its length field).
    ///   - value: the value.
    public init(key: String, value: AMF0Value) {
        self.key = key
        self.value = value
    }
}

/// The properties of an AMF0 anonymous object (§2.5), ECMA array (§2.10) or typed object (§2.18), in the
/// order they were written: RTMP peers and FLV readers compare them in order, and a decode → encode round
/// trip gives the same bytes.
///
/// ```swift
/// let info: AMF0Object = ["app": "live", "tcUrl": "rtmp://127.0.0.1/live", "fpad": false]
/// info["app"]?.string  // "live"
/// ```
public struct AMF0Object: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The properties, in order.
    public var properties: [AMF0Property]

    /// Creates an object from properties in order.
    /// - Parameter properties: the properties.
    public init(_ properties: [AMF0Property] = []) {
        self.properties = properties
    }

    /// Creates an object from a literal, keeping its order.
    /// - Parameter elements: the key/value pairs.
    public init(dictionaryLiteral elements: (String, AMF0Value)...) {
        properties = elements.map { AMF0Property(key: $0.0, value: $0.1) }
    }

    /// The value of the first property named `key`; setting replaces it in place, or appends a new
    /// property; setting `nil` removes every property of that name.
    /// - Parameter key: the property's name.
    public subscript(key: String) -> AMF0Value? {
        get { properties.first { $0.key == key }?.value }
        set {
            guard let newValue else { properties.removeAll { $0.key == key }; return }
            if let index = properties.firstIndex(where: { $0.key == key }) {
                properties[index].value = newValue
            } else {
                properties.append(AMF0Property(key: key, value: newValue))
            }
        }
    }

    /// The property names, in order.
    public var keys: [String] { properties.map(\.key) }

    /// The number of properties.
    public var count: Int { properties.count }

    /// Whether the object has no properties.
    public var isEmpty: Bool { properties.isEmpty }
}

/// One AMF0 value, as RTMP command messages and FLV script-data tags carry them (Adobe, "Action Message
/// Format — AMF 0", §2).
///
/// Literals build values directly, so a command reads like the message it is:
///
/// ```swift
/// let connect: [AMF0Value] = ["connect", 1, .object(["app": "live", "flashVer": "FMLE/3.0", "fpad": false])]
/// var bytes: [UInt8] = []
/// for value in connect { try value.encode(into: &bytes) }
/// ```
///
/// Decoding is ``AMF0Decoder``'s job (with depth and size caps); encoding is ``encode(into:)``.
public enum AMF0Value: Sendable, Hashable {
    /// `number-type` (§2.2): an IEEE 754 double (AMF0 has no integers).
    case number(Double)
    /// `boolean-type` (§2.3).
    case boolean(Bool)
    /// `string-type` (§2.4): at most 65 535 bytes of UTF-8. A longer string is encoded as a long string.
    case string(String)
    /// `long-string-type` (§2.14): a string with a 32-bit length.
    case longString(String)
    /// `anonymous-object-type` (§2.5).
    case object(AMF0Object)
    /// `null-type` (§2.7).
    case null
    /// `undefined-type` (§2.8).
    case undefined
    /// `ecma-array-type` (§2.10): an associative array (what `onMetaData` holds).
    case ecmaArray(AMF0Object)
    /// `strict-array-type` (§2.12): values in order.
    case strictArray([AMF0Value])
    /// `date-type` (§2.13): milliseconds since 1970-01-01 UTC, and the time-zone field (reserved; 0 by the spec).
    case date(millisecondsSince1970: Double, timeZone: Int16)
    /// `xml-document-type` (§2.17).
    case xmlDocument(String)
    /// `typed-object-type` (§2.18): a class name and properties.
    case typedObject(className: String, AMF0Object)
    /// `unsupported-type` (§2.15).
    case unsupported

    /// The type marker this value is encoded with (a `.string` longer than 65 535 bytes goes out as
    /// ``AMF0TypeMarker/longString``).
    public var typeMarker: AMF0TypeMarker {
        switch self {
        case .number: return .number
        case .boolean: return .boolean
        case let .string(text): return text.utf8.count > Int(UInt16.max) ? .longString : .string
        case .longString: return .longString
        case .object: return .object
        case .null: return .null
        case .undefined: return .undefined
        case .ecmaArray: return .ecmaArray
        case .strictArray: return .strictArray
        case .date: return .date
        case .xmlDocument: return .xmlDocument
        case .typedObject: return .typedObject
        case .unsupported: return .unsupported
        }
    }

    /// The number, or `nil` for another type.
    public var number: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    /// The number as a whole number when it is one that fits an `Int` (transaction ids, sizes), else `nil`.
    public var integer: Int? {
        guard let number, number.isFinite, number == number.rounded(.towardZero),
              number >= -9.0e15, number <= 9.0e15 else { return nil }
        return Int(number)
    }

    /// The boolean, or `nil` for another type.
    public var boolean: Bool? {
        if case let .boolean(value) = self { return value }
        return nil
    }

    /// The text of a string or long string, or `nil` for another type.
    public var string: String? {
        switch self {
        case let .string(text), let .longString(text): return text
        default: return nil
        }
    }

    /// The properties of an object, ECMA array or typed object, or `nil` for another type.
    public var object: AMF0Object? {
        switch self {
        case let .object(object), let .ecmaArray(object), let .typedObject(_, object): return object
        default: return nil
        }
    }

    /// The values of a strict array, or `nil` for another type.
    public var array: [AMF0Value]? {
        if case let .strictArray(values) = self { return values }
        return nil
    }

    /// Whether the value is `null` or `undefined`.
    public var isNullOrUndefined: Bool {
        switch self {
        case .null, .undefined: return true
        default: return false
        }
    }

    /// The value of the property `key` of an object, ECMA array or typed object; `nil` when absent or
    /// when this value has no properties.
    /// - Parameter key: the property's name.
    public subscript(key: String) -> AMF0Value? {
        object?[key]
    }
}

extension AMF0Value: ExpressibleByStringLiteral {
    /// A string value.
    /// - Parameter value: the text.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension AMF0Value: ExpressibleByFloatLiteral {
    /// A number value.
    /// - Parameter value: the number.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension AMF0Value: ExpressibleByIntegerLiteral {
    /// A number value (AMF0 numbers are doubles).
    /// - Parameter value: the number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension AMF0Value: ExpressibleByBooleanLiteral {
    /// A boolean value.
    /// - Parameter value: the boolean.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension AMF0Value: ExpressibleByArrayLiteral {
    /// A strict array.
    /// - Parameter elements: the values.
    public init(arrayLiteral elements: AMF0Value...) { self = .strictArray(elements) }
}

extension AMF0Value: ExpressibleByDictionaryLiteral {
    /// An anonymous object, its properties in the literal's order.
    /// - Parameter elements: the key/value pairs.
    public init(dictionaryLiteral elements: (String, AMF0Value)...) {
        self = .object(AMF0Object(elements.map { AMF0Property(key: $0.0, value: $0.1) }))
    }
}

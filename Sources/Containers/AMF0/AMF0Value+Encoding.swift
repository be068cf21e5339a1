// Encoding AMF0 values (AMF0 specification §2): type marker, then the type's fields, big-endian.

extension AMF0Value {
    /// Appends the value's AMF0 encoding — type marker and fields — to `buffer` (§2.2–§2.18).
    ///
    /// A ``string(_:)`` of more than 65 535 bytes of UTF-8 is written as a long string (§2.14). Objects
    /// and ECMA arrays end with the empty name and `object-end-marker` (§2.5, §2.11); an ECMA array's
    /// count is its number of properties (§2.10).
    /// - Parameter buffer: the bytes to append to.
    /// - Throws: ``AMF0Error`` (``AMF0Error/Reason/keyTooLong(byteCount:)``,
    ///   ``AMF0Error/Reason/valueTooLong(byteCount:)``) for a value AMF0 cannot represent; `buffer` then
    ///   holds what was written before it.
    public func encode(into buffer: inout [UInt8]) throws(AMF0Error) {
        buffer.append(typeMarker.rawValue)
        switch self {
        case let .number(value):
            Self.appendDouble(value, to: &buffer)
        case let .boolean(value):
            buffer.append(value ? 1 : 0)
        case let .string(text):
            if text.utf8.count > Int(UInt16.max) { try Self.appendLongUTF8(text, to: &buffer) } else { Self.appendShortUTF8(text, to: &buffer) }
        case let .longString(text), let .xmlDocument(text):
            try Self.appendLongUTF8(text, to: &buffer)
        case let .object(object):
            try Self.appendProperties(of: object, to: &buffer)
        case .null, .undefined, .unsupported:
            break
        case let .ecmaArray(object):
            Self.appendUInt32(UInt32(truncatingIfNeeded: object.count), to: &buffer)
            try Self.appendProperties(of: object, to: &buffer)
        case let .strictArray(values):
            guard values.count <= Int(UInt32.max) else { throw AMF0Error(.valueTooLong(byteCount: values.count), offset: buffer.count) }
            Self.appendUInt32(UInt32(values.count), to: &buffer)
            for value in values { try value.encode(into: &buffer) }
        case let .date(milliseconds, timeZone):
            Self.appendDouble(milliseconds, to: &buffer)
            buffer.append(UInt8(truncatingIfNeeded: UInt16(bitPattern: timeZone) >> 8))
            buffer.append(UInt8(truncatingIfNeeded: UInt16(bitPattern: timeZone)))
        case let .typedObject(className, object):
            try Self.appendKey(className, to: &buffer)
            try Self.appendProperties(of: object, to: &buffer)
        }
    }

    /// The AMF0 encoding of a sequence of values, one after another (an RTMP command message, an FLV
    /// script-data tag body).
    /// - Parameter values: the values, in order.
    /// - Returns: the bytes.
    /// - Throws: ``AMF0Error`` for a value AMF0 cannot represent.
    public static func encode(_ values: [AMF0Value]) throws(AMF0Error) -> [UInt8] {
        var buffer: [UInt8] = []
        for value in values { try value.encode(into: &buffer) }
        return buffer
    }

    /// The bytes of the number as the big-endian IEEE 754 double of §2.2, for writers that patch a
    /// number in place (an FLV writer fixing up `duration`).
    /// - Parameter value: the number.
    /// - Returns: 8 bytes.
    public static func doubleBytes(_ value: Double) -> [UInt8] {
        var bytes: [UInt8] = []
        appendDouble(value, to: &bytes)
        return bytes
    }

    static func appendDouble(_ value: Double, to buffer: inout [UInt8]) {
        let bits = value.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    static func appendUInt32(_ value: UInt32, to buffer: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// `UTF-8` (§1.3): U16 length, then the bytes. The caller checked the length.
    static func appendShortUTF8(_ text: String, to buffer: inout [UInt8]) {
        let count = text.utf8.count
        buffer.append(UInt8(truncatingIfNeeded: count >> 8))
        buffer.append(UInt8(truncatingIfNeeded: count))
        buffer.append(contentsOf: text.utf8)
    }

    /// `UTF-8-long` (§1.3): U32 length, then the bytes.
    static func appendLongUTF8(_ text: String, to buffer: inout [UInt8]) throws(AMF0Error) {
        let count = text.utf8.count
        guard count <= Int(UInt32.max) else { throw AMF0Error(.valueTooLong(byteCount: count), offset: buffer.count) }
        appendUInt32(UInt32(count), to: &buffer)
        buffer.append(contentsOf: text.utf8)
    }

    static func appendKey(_ key: String, to buffer: inout [UInt8]) throws(AMF0Error) {
        let count = key.utf8.count
        guard count <= Int(UInt16.max) else { throw AMF0Error(.keyTooLong(byteCount: count), offset: buffer.count) }
        appendShortUTF8(key, to: &buffer)
    }

    /// `*(object-property)` then `UTF-8-empty object-end-marker` (§2.5).
    static func appendProperties(of object: AMF0Object, to buffer: inout [UInt8]) throws(AMF0Error) {
        for property in object.properties {
            try appendKey(property.key, to: &buffer)
            try property.value.encode(into: &buffer)
        }
        buffer.append(contentsOf: [0, 0, AMF0TypeMarker.objectEnd.rawValue])
    }
}

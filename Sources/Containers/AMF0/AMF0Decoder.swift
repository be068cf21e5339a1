import Bitstream

/// Decodes AMF0 values (Adobe, "Action Message Format — AMF 0", §2) from a ``ByteView``, within hard caps
/// (``AMF0Limits``): hostile bytes — an object nested 10 000 deep, a string or array that declares
/// gigabytes — end in an ``AMF0Error`` naming the offset, never in a crash or a large allocation.
///
/// ```swift
/// var message = ByteView(bytes)  // an RTMP command message
/// let values = try AMF0Decoder().decodeValues(from: message)
/// if values.first?.string == "connect", let app = values.dropFirst(2).first?["app"]?.string { … }
/// ```
public struct AMF0Decoder: Sendable {
    /// The caps every decode call is held to.
    public var limits: AMF0Limits

    /// Creates a decoder.
    /// - Parameter limits: the caps, ``AMF0Limits/default`` unless given.
    public init(limits: AMF0Limits = .default) {
        self.limits = limits
    }

    /// Decodes the value at `view`'s reader index and moves the reader index past it.
    /// - Parameter view: the bytes; on a throw its reader index is unchanged.
    /// - Returns: the value.
    /// - Throws: ``AMF0Error``, its offset counted from the reader index at the call.
    public func decodeValue(from view: inout ByteView) throws(AMF0Error) -> AMF0Value {
        var cursor = AMF0Cursor(view: view, limits: limits)
        let value = try cursor.value(depth: 1)
        view.moveReaderIndex(to: cursor.position)
        return value
    }

    /// Decodes every value from `view`'s reader index to its end (an RTMP command or data message, an FLV
    /// script-data tag body); the value count cap covers them all together.
    /// - Parameter view: the bytes.
    /// - Returns: the values, in order.
    /// - Throws: ``AMF0Error``, its offset counted from `view`'s reader index.
    public func decodeValues(from view: ByteView) throws(AMF0Error) -> [AMF0Value] {
        var cursor = AMF0Cursor(view: view, limits: limits)
        var values: [AMF0Value] = []
        while cursor.position < view.count {
            values.append(try cursor.value(depth: 1))
        }
        return values
    }
}

/// Where an ``AMF0Decoder`` is in its input, and how many values it has made.
struct AMF0Cursor {
    let view: ByteView
    let start: Int
    let limits: AMF0Limits
    /// The next byte to read, counted from the start of `view`.
    var position: Int
    var valueCount = 0

    init(view: ByteView, limits: AMF0Limits) {
        self.view = view
        self.start = view.readerIndex
        self.position = view.readerIndex
        self.limits = limits
    }

    private var offset: Int { position - start }
    private var remaining: Int { view.count - position }

    private func error(_ reason: AMF0Error.Reason, at position: Int? = nil) -> AMF0Error {
        AMF0Error(reason, offset: (position ?? self.position) - start)
    }

    mutating func byte(_ field: String) throws(AMF0Error) -> UInt8 {
        guard let value = view.getByte(at: position) else { throw error(.truncated(field: field)) }
        position += 1
        return value
    }

    mutating func integer<Integer: FixedWidthInteger>(_ field: String, as type: Integer.Type) throws(AMF0Error) -> Integer {
        guard let value = view.getInteger(at: position, as: Integer.self) else { throw error(.truncated(field: field)) }
        position += MemoryLayout<Integer>.size
        return value
    }

    mutating func double(_ field: String) throws(AMF0Error) -> Double {
        Double(bitPattern: try integer(field, as: UInt64.self))
    }

    /// `UTF-8` / `UTF-8-long` (§1.3): the length, then that many bytes of UTF-8.
    mutating func text(_ field: String, long: Bool) throws(AMF0Error) -> String {
        let lengthAt = position
        let count = long ? Int(try integer("\(field) length", as: UInt32.self)) : Int(try integer("\(field) length", as: UInt16.self))
        guard count <= limits.maximumStringByteCount else {
            throw error(.stringTooLong(byteCount: count, limit: limits.maximumStringByteCount), at: lengthAt)
        }
        guard count <= remaining, let bytes = view.getView(at: position, byteCount: count) else {
            throw error(.truncated(field: field))
        }
        guard let text = bytes.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
            throw error(.invalidUTF8(field: field))
        }
        position += count
        return text
    }

    /// One value: type marker and fields (§2.2–§2.18).
    mutating func value(depth: Int) throws(AMF0Error) -> AMF0Value {
        let markerAt = position
        valueCount += 1
        guard valueCount <= limits.maximumValueCount else { throw error(.tooManyValues(limit: limits.maximumValueCount)) }
        let rawMarker = try byte("type marker")
        guard let marker = AMF0TypeMarker(rawValue: rawMarker) else { throw error(.unknownTypeMarker(rawMarker), at: markerAt) }
        switch marker {
        case .number: return .number(try double("number"))
        case .boolean: return .boolean(try byte("boolean") != 0)
        case .string: return .string(try text("string", long: false))
        case .longString: return .longString(try text("long string", long: true))
        case .xmlDocument: return .xmlDocument(try text("XML document", long: true))
        case .null: return .null
        case .undefined: return .undefined
        case .unsupported: return .unsupported
        case .date:
            let milliseconds = try double("date")
            return .date(millisecondsSince1970: milliseconds, timeZone: try integer("date time-zone", as: Int16.self))
        case .object:
            try checkDepth(depth, at: markerAt)
            return .object(try properties(depth: depth, endsAtDataEnd: false))
        case .ecmaArray:
            try checkDepth(depth, at: markerAt)
            // The associative count is a hint only (§2.10): properties run to the object-end-marker.
            _ = try integer("ECMA array count", as: UInt32.self)
            return .ecmaArray(try properties(depth: depth, endsAtDataEnd: true))
        case .typedObject:
            try checkDepth(depth, at: markerAt)
            let className = try text("class-name", long: false)
            return .typedObject(className: className, try properties(depth: depth, endsAtDataEnd: false))
        case .strictArray:
            try checkDepth(depth, at: markerAt)
            let countAt = position
            let count = Int(try integer("strict array count", as: UInt32.self))
            // Every value takes at least its marker byte: a count past the bytes left is a lie.
            guard count <= remaining else { throw error(.truncated(field: "strict array of \(count) values"), at: countAt) }
            var values: [AMF0Value] = []
            values.reserveCapacity(min(count, limits.maximumValueCount))
            for _ in 0..<count { values.append(try value(depth: depth + 1)) }
            return .strictArray(values)
        case .objectEnd:
            throw error(.unexpectedObjectEnd, at: markerAt)
        case .movieClip, .reference, .recordSet, .avmPlusObject:
            throw error(.unsupportedType(marker), at: markerAt)
        }
    }

    private func checkDepth(_ depth: Int, at markerAt: Int) throws(AMF0Error) {
        guard depth < limits.maximumDepth else { throw error(.tooDeep(limit: limits.maximumDepth), at: markerAt) }
    }

    /// `*(object-property)` up to `UTF-8-empty object-end-marker` (§2.5, §2.11). An empty name followed
    /// by anything but the end marker is a property of that (empty) name, as the grammar allows.
    ///
    /// `endsAtDataEnd`: an ECMA array whose bytes end right where a name would start is complete — some
    /// encoders of `onMetaData` (older Flash Media Encoders and ffmpeg's own tests speak of them) leave
    /// out the final end marker.
    private mutating func properties(depth: Int, endsAtDataEnd: Bool) throws(AMF0Error) -> AMF0Object {
        var object = AMF0Object()
        while true {
            if endsAtDataEnd, remaining == 0 { return object }
            if remaining >= 3, view.getByte(at: position) == 0, view.getByte(at: position + 1) == 0,
               view.getByte(at: position + 2) == AMF0TypeMarker.objectEnd.rawValue {
                position += 3
                return object
            }
            let key = try text("property name", long: false)
            object.properties.append(AMF0Property(key: key, value: try value(depth: depth + 1)))
        }
    }
}

import Bitstream

/// The body of a script-data tag (FLV specification v10.1, E.4.4.1 `SCRIPTDATA`) — also an RTMP data
/// message (type 18): a name (an AMF0 string, `onMetaData`) and its values.
public struct FLVScriptData: Sendable, Hashable {
    /// The name, for example `onMetaData` (or `@setDataFrame` in RTMP).
    public var name: String
    /// The values after the name (for `onMetaData`, one ECMA array).
    public var values: [AMF0Value]

    /// Creates script data.
    /// - Parameters:
    ///   - name: the name.
    ///   - values: the values.
    public init(name: String, values: [AMF0Value]) {
        self.name = name
        self.values = values
    }

    /// Parses a script-data body.
    /// - Parameters:
    ///   - body: the tag's body.
    ///   - limits: the AMF0 caps.
    /// - Throws: ``FLVError/Reason/invalidScriptData(_:)`` (offset in the body) for AMF0 that does not decode or a
    ///   first value that is no string.
    public init(parsing body: ByteView, limits: AMF0Limits = .default) throws(FLVError) {
        let values: [AMF0Value]
        do { values = try AMF0Decoder(limits: limits).decodeValues(from: body) } catch {
            throw FLVError(.invalidScriptData(error), offset: error.offset)
        }
        guard let name = values.first?.string else {
            throw FLVError(.invalidScriptData(AMF0Error(.truncated(field: "script data name"), offset: 0)), offset: 0)
        }
        self.init(name: name, values: Array(values.dropFirst()))
    }

    /// The body's bytes.
    /// - Returns: the AMF0 encoding of the name and the values.
    /// - Throws: ``FLVError/Reason/invalidScriptData(_:)`` for a value AMF0 cannot represent.
    public func bytes() throws(FLVError) -> [UInt8] {
        do { return try AMF0Value.encode([.string(name)] + values) } catch {
            throw FLVError(.invalidScriptData(error), offset: error.offset)
        }
    }

    /// The `onMetaData` properties (of its first ECMA array or object), or `nil` for other script data.
    public var metadata: AMF0Object? {
        guard name == "onMetaData" else { return nil }
        return values.first?.object
    }
}

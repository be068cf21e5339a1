/// Everything that can be wrong with a session description (RFC 8866), or with the format parameters of
/// one of its payload types (RFC 6184 §8.1, RFC 7798 §7.1, RFC 3640 §4.1).
///
/// Errors found while reading the text name the 1-based line number; errors found while interpreting a
/// payload type's parameters name the parameter as the RFC spells it.
public enum SDPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is longer than ``SessionDescription/maximumByteCount``.
    case tooLarge(byteCount: Int, limit: Int)
    /// The text has more lines, media sections or attributes than the caps allow.
    case tooMany(what: String, limit: Int)
    /// A line is not valid UTF-8 or holds a NUL byte.
    case invalidText(line: Int)
    /// A line is not `<type>=<value>` with a one-letter type.
    case malformedLine(line: Int, text: String)
    /// The first line is not `v=0`.
    case missingVersion(line: Int)
    /// A line that may appear once appears again.
    case duplicateLine(line: Int, type: Character)
    /// A field of a line is missing or does not hold what RFC 8866 §5 says it holds.
    case invalidField(line: Int, field: String, value: String)
    /// A payload type has no `a=rtpmap` and is not one of the static types of RFC 3551.
    case missingRTPMap(payloadType: UInt8)
    /// A payload type has an encoding this module does not interpret (the name as written).
    case unsupportedEncoding(String)
    /// A format parameter the payload format requires is absent.
    case missingParameter(String)
    /// A format parameter has a value its RFC does not allow.
    case invalidParameter(name: String, value: String, reason: String)
    /// A parameter set carried in the parameters does not parse (the codec module's message).
    case invalidParameterSet(name: String, index: Int, reason: String)
    /// A format description cannot be written as SDP (for example: no parameter sets).
    case unrepresentableFormat(String)

    /// A sentence that says what is wrong and where.
    public var description: String {
        switch self {
        case let .tooLarge(count, limit):
            return "SDP: \(count) bytes is more than the limit of \(limit)"
        case let .tooMany(what, limit):
            return "SDP: more than \(limit) \(what)"
        case let .invalidText(line):
            return "SDP line \(line): not UTF-8 text, or holds a NUL byte"
        case let .malformedLine(line, text):
            return "SDP line \(line): '\(text.prefix(80))' is not <type>=<value>"
        case let .missingVersion(line):
            return "SDP line \(line): the description must start with v=0"
        case let .duplicateLine(line, type):
            return "SDP line \(line): a second \(type)= line"
        case let .invalidField(line, field, value):
            return "SDP line \(line): \(field) '\(value.prefix(80))' is invalid"
        case let .missingRTPMap(payloadType):
            return "SDP: payload type \(payloadType) has no a=rtpmap and is not a static type"
        case let .unsupportedEncoding(name):
            return "SDP: encoding '\(name)' is not supported"
        case let .missingParameter(name):
            return "SDP: format parameter \(name) is missing"
        case let .invalidParameter(name, value, reason):
            return "SDP: format parameter \(name)='\(value.prefix(80))': \(reason)"
        case let .invalidParameterSet(name, index, reason):
            return "SDP: \(name) entry \(index): \(reason)"
        case let .unrepresentableFormat(reason):
            return "SDP: cannot describe this format: \(reason)"
        }
    }
}

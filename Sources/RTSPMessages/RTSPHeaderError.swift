/// A header value that does not parse: which header, and what in it is wrong.
public enum RTSPHeaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A parameter of the header is malformed: the header, the parameter (as written) and why.
    case malformedParameter(header: String, parameter: String, reason: String)
    /// The header lacks a part it must have (for example the transport protocol).
    case missingPart(header: String, part: String)
    /// The header value is over the length this parser takes (a hostile peer's endless value).
    case tooLong(header: String, limit: Int)

    /// For example `Transport: client_port "70000-70001": not a port range`.
    public var description: String {
        switch self {
        case let .malformedParameter(header, parameter, reason):
            return "\(header): \"\(parameter.prefix(80))\": \(reason)"
        case let .missingPart(header, part):
            return "\(header): no \(part)"
        case let .tooLong(header, limit):
            return "\(header): the value is longer than \(limit) bytes"
        }
    }
}

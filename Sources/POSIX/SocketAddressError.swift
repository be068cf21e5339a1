/// Text that is not an `address:port` ``SocketAddress`` can parse; each case carries the whole text.
public enum SocketAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No `:port` after the host (`127.0.0.1`).
    case missingPort(text: String)
    /// The port is not a number from 0 to 65535.
    case invalidPort(text: String, port: String)
    /// The host is not an IPv4 dotted quad nor an IPv6 address (host names are not resolved here).
    case invalidHost(text: String, host: String)
    /// An IPv6 address without brackets (`::1:5004`): write `[::1]:5004`.
    case missingBrackets(text: String)
    /// A `[` without its `]`, or something other than `:port` after the `]`.
    case malformedBrackets(text: String)

    /// What is wrong, for example `bad address "127.0.0.1:99999": port 99999 is not 0…65535`.
    public var description: String {
        switch self {
        case let .missingPort(text):
            return "bad address \"\(text)\": no :port after the host"
        case let .invalidPort(text, port):
            return "bad address \"\(text)\": port \"\(port)\" is not a number from 0 to 65535"
        case let .invalidHost(text, host):
            return "bad address \"\(text)\": \"\(host)\" is not an IPv4 or IPv6 address"
        case let .missingBrackets(text):
            return "bad address \"\(text)\": an IPv6 address goes in brackets, as in [::1]:5004"
        case let .malformedBrackets(text):
            return "bad address \"\(text)\": expected [IPv6]:port"
        }
    }
}

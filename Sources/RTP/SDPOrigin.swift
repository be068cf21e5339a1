/// The `o=` line (RFC 8866 §5.2): who created the session and a globally unique identifier for it.
public struct SDPOrigin: Sendable, Hashable {
    /// The user's login on the originating host, or `-`.
    public var username: String
    /// A numeric string that, with the other fields, identifies the session (kept as written).
    public var sessionID: String
    /// The version number of this description (kept as written).
    public var sessionVersion: String
    /// `IN` (Internet).
    public var networkType: String
    /// `IP4` or `IP6`.
    public var addressType: String
    /// The address (or domain name) of the machine that created the session.
    public var unicastAddress: String

    /// Creates an origin.
    /// - Parameters:
    ///   - username: the user name, `-` when there is none.
    ///   - sessionID: the session identifier, a numeric string.
    ///   - sessionVersion: the version, a numeric string.
    ///   - networkType: `IN`.
    ///   - addressType: `IP4` or `IP6`.
    ///   - unicastAddress: the creating host's address.
    public init(username: String = "-", sessionID: String = "0", sessionVersion: String = "0",
                networkType: String = "IN", addressType: String = "IP4", unicastAddress: String = "127.0.0.1") {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.networkType = networkType
        self.addressType = addressType
        self.unicastAddress = unicastAddress
    }

    /// The line's value: `<username> <sess-id> <sess-version> <nettype> <addrtype> <unicast-address>`.
    public var value: String {
        "\(username) \(sessionID) \(sessionVersion) \(networkType) \(addressType) \(unicastAddress)"
    }
}

/// A user name and password for an RTSP server that asks (RFC 2617 Basic or Digest).
public struct RTSPCredentials: Sendable, Hashable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - user: the user name.
    ///   - password: the password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

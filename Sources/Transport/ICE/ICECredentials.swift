/// An ICE agent's user fragment and password (RFC 8445 §5.3, the SDP's `a=ice-ufrag` and `a=ice-pwd`, RFC 8839 §5.4).
public struct ICECredentials: Hashable, Sendable {
    /// The user fragment: at least 4 `ice-char`s.
    public var userFragment: String
    /// The password: at least 22 `ice-char`s; its UTF-8 bytes are the MESSAGE-INTEGRITY key.
    public var password: String

    /// Credentials.
    /// - Parameters:
    ///   - userFragment: the ufrag.
    ///   - password: the password.
    public init(userFragment: String, password: String) {
        self.userFragment = userFragment
        self.password = password
    }

    /// Fresh random credentials: an 8-character ufrag and a 24-character password of `ice-char`s (RFC 8839 §5.4:
    /// ALPHA / DIGIT / "+" / "/"), from the system's random generator.
    /// - Returns: the credentials.
    public static func random() -> ICECredentials {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var generator = SystemRandomNumberGenerator()
        func text(_ count: Int) -> String { String((0..<count).map { _ in alphabet[Int(generator.next() % 64)] }) }
        return ICECredentials(userFragment: text(8), password: text(24))
    }
}

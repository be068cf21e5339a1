/// The client side of RTSP authentication: answers a server's 401 challenges — Digest MD5 / MD5-sess (RFC 2617,
/// RFC 7616; `qop=auth` or the legacy form without qop) in preference to Basic (RFC 7617) — and writes the
/// `Authorization` header of every later request (counting `nc` for one nonce).
///
/// ```swift
/// var authenticator = RTSPClientAuthenticator(user: "admin", password: "secret")
/// if response.status == .unauthorized, authenticator.accept(challenges: response.headers.values(for: "WWW-Authenticate")) {
///     request.headers.set("Authorization", authenticator.authorization(method: .describe, uri: url)!)
/// }
/// ```
public struct RTSPClientAuthenticator: Sendable {
    private enum Scheme: Sendable {
        case digest(DigestChallenge)
        case basic
    }

    /// The user name.
    public var user: String
    /// The password.
    public var password: String
    private var scheme: Scheme?
    private var nonceCount: UInt32 = 0

    /// Credentials to answer with.
    /// - Parameters:
    ///   - user: the user name.
    ///   - password: the password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// Whether a challenge has been accepted (so ``authorization(method:uri:)`` gives a value).
    public var hasChallenge: Bool { scheme != nil }

    /// Takes the `WWW-Authenticate` values of a 401 response and picks the scheme to answer: Digest with MD5 or
    /// MD5-sess (qop `auth` or none) first, else Basic.
    /// - Parameter challenges: the header values.
    /// - Returns: `false` when none can be answered (for example only SHA-256 Digest).
    public mutating func accept(challenges: [String]) -> Bool {
        for value in challenges {
            guard let challenge = try? DigestChallenge(parsing: value) else { continue }
            let algorithm = challenge.algorithm?.lowercased() ?? "md5"
            guard algorithm == "md5" || algorithm == "md5-sess" else { continue }
            guard challenge.qopOptions.isEmpty || challenge.qopOptions.contains("auth") else { continue }
            if case let .digest(previous) = scheme, previous.nonce == challenge.nonce {} else { nonceCount = 0 }
            scheme = .digest(challenge)
            return true
        }
        if challenges.contains(where: { AuthenticationParameters.scheme(of: $0).scheme == "basic" }) {
            scheme = .basic
            return true
        }
        return false
    }

    /// The `Authorization` value for a request, or `nil` before a challenge was accepted.
    /// - Parameters:
    ///   - method: the request method.
    ///   - uri: the Request-URI, exactly as in the request line.
    /// - Returns: the header value.
    public mutating func authorization(method: RTSPMethod, uri: String) -> String? {
        switch scheme {
        case nil:
            return nil
        case .basic:
            return Self.basicAuthorization(user: user, password: password)
        case let .digest(challenge):
            let qop: String? = challenge.qopOptions.contains("auth") ? "auth" : nil
            var count: String?
            var clientNonce: String?
            if qop != nil || challenge.algorithm?.lowercased() == "md5-sess" {
                nonceCount &+= 1
                count = RTSPTransportHeader.hex8(nonceCount).lowercased()
                var generator = SystemRandomNumberGenerator()
                clientNonce = MD5.hex((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
            }
            let response = DigestCredentials.response(username: user, password: password, realm: challenge.realm,
                                                      nonce: challenge.nonce, method: method.rawValue, uri: uri,
                                                      algorithm: challenge.algorithm, qop: qop,
                                                      nonceCount: qop == nil ? nil : count, clientNonce: clientNonce)
            let credentials = DigestCredentials(username: user, realm: challenge.realm, nonce: challenge.nonce, uri: uri,
                                                response: response, algorithm: challenge.algorithm,
                                                clientNonce: qop == nil && challenge.algorithm?.lowercased() != "md5-sess" ? nil : clientNonce,
                                                nonceCount: qop == nil ? nil : count, qop: qop, opaque: challenge.opaque)
            return credentials.headerValue
        }
    }

    /// `Basic base64(user:password)` (RFC 7617 §2).
    /// - Parameters:
    ///   - user: the user name.
    ///   - password: the password.
    /// - Returns: the header value.
    public static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + Base64.encode(Array("\(user):\(password)".utf8))
    }
}

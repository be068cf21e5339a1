/// The server side of RTSP authentication: the challenges to send with 401, and the check of a request's
/// `Authorization` header — Digest MD5 (RFC 2617 / RFC 7616, `qop=auth` or the legacy form cameras use) and,
/// if allowed, Basic (RFC 7617).
///
/// Nonces are stateless: the time they were made (seconds since this authenticator began) with an MD5 keyed by a
/// random secret, so any nonce it made is recognised until ``nonceLifetime`` passes, with nothing stored per
/// client; an expired one is answered with `stale=true`. Nonce counts are not tracked (no replay protection beyond
/// the lifetime), as in most cameras.
///
/// ```swift
/// let authenticator = RTSPServerAuthenticator(user: "admin", password: "secret")
/// if authenticator.verify(request.headers["Authorization"], method: request.method) != .accepted { … 401 … }
/// ```
public struct RTSPServerAuthenticator: Sendable {
    /// The outcome of ``verify(_:method:)``.
    public enum Verdict: Hashable, Sendable {
        /// The credentials are right.
        case accepted
        /// There is no `Authorization` header: challenge.
        case missing
        /// The credentials are wrong, malformed, or for another realm: challenge again.
        case rejected
        /// Right credentials on an expired nonce: challenge with `stale=true`.
        case staleNonce
    }

    /// The realm.
    public let realm: String
    /// The one user name accepted.
    public let user: String
    private let password: String
    /// Whether Basic credentials are accepted (and offered); off by default — they cross the network in clear.
    public let allowsBasic: Bool
    /// How long a nonce stays good.
    public let nonceLifetime: Duration
    private let secret: String
    private let origin = ContinuousClock.now

    /// An authenticator for one user.
    /// - Parameters:
    ///   - realm: the realm shown to users.
    ///   - user: the user name.
    ///   - password: the password.
    ///   - allowsBasic: whether to accept Basic too.
    ///   - nonceLifetime: how long a nonce stays good.
    public init(realm: String = "StreamKit", user: String, password: String, allowsBasic: Bool = false,
                nonceLifetime: Duration = .seconds(3600)) {
        self.realm = realm
        self.user = user
        self.password = password
        self.allowsBasic = allowsBasic
        self.nonceLifetime = nonceLifetime
        var generator = SystemRandomNumberGenerator()
        secret = MD5.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The `WWW-Authenticate` values for a 401 response: Digest first, then Basic if allowed.
    /// - Parameter stale: whether the last nonce was stale.
    /// - Returns: the header values.
    public func challengeHeaderValues(stale: Bool = false) -> [String] {
        let digest = DigestChallenge(realm: realm, nonce: makeNonce(), algorithm: "MD5", qopOptions: ["auth"], isStale: stale)
        var values = [digest.headerValue]
        if allowsBasic { values.append("Basic realm=" + AuthenticationParameters.quoted(realm)) }
        return values
    }

    /// Checks a request's `Authorization` header. The Digest answer is checked against the `uri` it names (clients
    /// differ in writing the Request-URI or an absolute one), its realm and a nonce this authenticator made.
    /// - Parameters:
    ///   - authorization: the header value, or `nil`.
    ///   - method: the request's method.
    /// - Returns: the verdict.
    public func verify(_ authorization: String?, method: RTSPMethod) -> Verdict {
        guard let authorization else { return .missing }
        let (scheme, rest) = AuthenticationParameters.scheme(of: authorization)
        switch scheme {
        case "basic":
            guard allowsBasic, let decoded = Base64.decode(String(rest)) else { return .rejected }
            return constantTimeEqual(Array("\(user):\(password)".utf8), decoded) ? .accepted : .rejected
        case "digest":
            guard let credentials = try? DigestCredentials(parsing: authorization),
                  credentials.username == user, credentials.realm == realm else { return .rejected }
            if let algorithm = credentials.algorithm, algorithm.lowercased() != "md5" { return .rejected }
            if let qop = credentials.qop {
                guard qop.lowercased() == "auth", credentials.clientNonce != nil, credentials.nonceCount != nil else { return .rejected }
            }
            guard let age = nonceAge(credentials.nonce) else { return .rejected }
            let expected = DigestCredentials.response(username: user, password: password, realm: realm, nonce: credentials.nonce,
                                                      method: method.rawValue, uri: credentials.uri, algorithm: nil,
                                                      qop: credentials.qop, nonceCount: credentials.nonceCount,
                                                      clientNonce: credentials.clientNonce)
            guard constantTimeEqual(Array(expected.utf8), Array(credentials.response.lowercased().utf8)) else { return .rejected }
            return age > nonceLifetime ? .staleNonce : .accepted
        default:
            return .rejected
        }
    }

    private func makeNonce() -> String {
        let seconds = UInt64(max(0, (ContinuousClock.now - origin).components.seconds))
        let stamp = String(seconds, radix: 16)
        return stamp + "." + MD5.hexDigest("\(stamp):\(secret)")
    }

    /// How old a nonce this authenticator made is, or `nil` when it did not make it.
    private func nonceAge(_ nonce: String) -> Duration? {
        let parts = nonce.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].utf8.count <= 16, let seconds = UInt64(parts[0], radix: 16),
              constantTimeEqual(Array(MD5.hexDigest("\(parts[0]):\(secret)").utf8), Array(parts[1].utf8)) else { return nil }
        let now = UInt64(max(0, (ContinuousClock.now - origin).components.seconds))
        guard seconds <= now else { return nil }
        return .seconds(Int64(now - seconds))
    }

    private func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

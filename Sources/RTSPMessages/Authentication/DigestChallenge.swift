/// A Digest challenge, the value of a `WWW-Authenticate: Digest …` header (RFC 2617 §3.2.1, RFC 7616 §3.3).
public struct DigestChallenge: Hashable, Sendable {
    /// `realm=`: the protection space, shown to users and hashed into the answer.
    public var realm: String
    /// `nonce=`: the server's one-time value.
    public var nonce: String
    /// `opaque=`: returned unchanged by the client.
    public var opaque: String?
    /// `algorithm=`: `MD5` (the default when absent) or `MD5-sess`.
    public var algorithm: String?
    /// `qop=`: the qualities of protection offered (`auth`); empty for the legacy RFC 2069 form cameras still send.
    public var qopOptions: [String]
    /// `stale=true`: the nonce expired but the credentials were right; answer again without asking the user.
    public var isStale: Bool

    /// A challenge.
    /// - Parameters:
    ///   - realm: the realm.
    ///   - nonce: the nonce.
    ///   - opaque: the opaque value, if any.
    ///   - algorithm: the algorithm, if stated.
    ///   - qopOptions: the qop values offered.
    ///   - isStale: whether the previous nonce was stale.
    public init(realm: String, nonce: String, opaque: String? = nil, algorithm: String? = "MD5", qopOptions: [String] = ["auth"],
                isStale: Bool = false) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithm = algorithm
        self.qopOptions = qopOptions
        self.isStale = isStale
    }

    /// Parses a `WWW-Authenticate` value that starts with `Digest`.
    /// - Parameter value: the header value.
    /// - Throws: ``RTSPHeaderError`` when the scheme is not Digest, or realm or nonce is missing.
    public init(parsing value: String) throws(RTSPHeaderError) {
        let (scheme, rest) = AuthenticationParameters.scheme(of: value)
        guard scheme == "digest" else { throw .missingPart(header: "WWW-Authenticate", part: "Digest scheme") }
        let parameters = try AuthenticationParameters(parsing: rest, header: "WWW-Authenticate")
        guard let realm = parameters["realm"] else { throw .missingPart(header: "WWW-Authenticate", part: "realm") }
        guard let nonce = parameters["nonce"] else { throw .missingPart(header: "WWW-Authenticate", part: "nonce") }
        self.realm = realm
        self.nonce = nonce
        opaque = parameters["opaque"]
        algorithm = parameters["algorithm"]
        qopOptions = (parameters["qop"] ?? "").split(separator: ",").map { String($0.trimmingRTSPWhitespace()).lowercased() }
            .filter { !$0.isEmpty }
        isStale = parameters["stale"]?.lowercased() == "true"
    }

    /// `Digest realm="…", nonce="…", algorithm=MD5, qop="auth"`.
    public var headerValue: String {
        var parts = ["realm=" + AuthenticationParameters.quoted(realm), "nonce=" + AuthenticationParameters.quoted(nonce)]
        if let opaque { parts.append("opaque=" + AuthenticationParameters.quoted(opaque)) }
        if let algorithm { parts.append("algorithm=" + AuthenticationParameters.tokenOrQuoted(algorithm)) }
        if !qopOptions.isEmpty { parts.append("qop=" + AuthenticationParameters.quoted(qopOptions.joined(separator: ","))) }
        if isStale { parts.append("stale=true") }
        return "Digest " + parts.joined(separator: ", ")
    }
}

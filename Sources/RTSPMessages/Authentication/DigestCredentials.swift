/// Digest credentials, the value of an `Authorization: Digest …` header (RFC 2617 §3.2.2, RFC 7616 §3.4).
public struct DigestCredentials: Hashable, Sendable {
    /// `username=`.
    public var username: String
    /// `realm=` (the challenge's).
    public var realm: String
    /// `nonce=` (the challenge's).
    public var nonce: String
    /// `uri=`: the Request-URI the answer was computed on.
    public var uri: String
    /// `response=`: 32 hex digits.
    public var response: String
    /// `algorithm=`, if stated.
    public var algorithm: String?
    /// `cnonce=`: the client's nonce (with qop).
    public var clientNonce: String?
    /// `nc=`: how many times the nonce was used, 8 hex digits (with qop).
    public var nonceCount: String?
    /// `qop=`: `auth`, or `nil` for the legacy form.
    public var qop: String?
    /// `opaque=` (the challenge's).
    public var opaque: String?

    /// Credentials.
    /// - Parameters:
    ///   - username: the user.
    ///   - realm: the realm.
    ///   - nonce: the nonce.
    ///   - uri: the Request-URI.
    ///   - response: the computed answer.
    ///   - algorithm: the algorithm, if stated.
    ///   - clientNonce: the cnonce (with qop).
    ///   - nonceCount: the nc (with qop).
    ///   - qop: the qop chosen.
    ///   - opaque: the opaque value.
    public init(username: String, realm: String, nonce: String, uri: String, response: String, algorithm: String? = nil,
                clientNonce: String? = nil, nonceCount: String? = nil, qop: String? = nil, opaque: String? = nil) {
        self.username = username
        self.realm = realm
        self.nonce = nonce
        self.uri = uri
        self.response = response
        self.algorithm = algorithm
        self.clientNonce = clientNonce
        self.nonceCount = nonceCount
        self.qop = qop
        self.opaque = opaque
    }

    /// Parses an `Authorization` value that starts with `Digest`.
    /// - Parameter value: the header value.
    /// - Throws: ``RTSPHeaderError`` when the scheme is not Digest or a required parameter is missing.
    public init(parsing value: String) throws(RTSPHeaderError) {
        let (scheme, rest) = AuthenticationParameters.scheme(of: value)
        guard scheme == "digest" else { throw .missingPart(header: "Authorization", part: "Digest scheme") }
        let parameters = try AuthenticationParameters(parsing: rest, header: "Authorization")
        func required(_ name: String) throws(RTSPHeaderError) -> String {
            guard let value = parameters[name] else { throw .missingPart(header: "Authorization", part: name) }
            return value
        }
        username = try required("username")
        realm = try required("realm")
        nonce = try required("nonce")
        uri = try required("uri")
        response = try required("response")
        algorithm = parameters["algorithm"]
        clientNonce = parameters["cnonce"]
        nonceCount = parameters["nc"]
        qop = parameters["qop"]
        opaque = parameters["opaque"]
    }

    /// `Digest username="…", realm="…", nonce="…", uri="…", response="…"[, …]`.
    public var headerValue: String {
        var parts = ["username=" + AuthenticationParameters.quoted(username), "realm=" + AuthenticationParameters.quoted(realm),
                     "nonce=" + AuthenticationParameters.quoted(nonce), "uri=" + AuthenticationParameters.quoted(uri),
                     "response=" + AuthenticationParameters.quoted(response)]
        if let algorithm { parts.append("algorithm=" + AuthenticationParameters.tokenOrQuoted(algorithm)) }
        if let opaque { parts.append("opaque=" + AuthenticationParameters.quoted(opaque)) }
        if let qop { parts.append("qop=" + AuthenticationParameters.tokenOrQuoted(qop)) }
        if let nonceCount { parts.append("nc=" + AuthenticationParameters.tokenOrQuoted(nonceCount)) }
        if let clientNonce { parts.append("cnonce=" + AuthenticationParameters.quoted(clientNonce)) }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// The `response=` value (RFC 2617 §3.2.2.1): with qop `auth`,
    /// `MD5(HA1:nonce:nc:cnonce:qop:HA2)`, else (RFC 2069) `MD5(HA1:nonce:HA2)`, where `HA1 = MD5(user:realm:password)`
    /// (for `MD5-sess`, `MD5(HA1:nonce:cnonce)`) and `HA2 = MD5(method:uri)`.
    /// - Parameters:
    ///   - username: the user.
    ///   - password: the password.
    ///   - realm: the realm.
    ///   - nonce: the server nonce.
    ///   - method: the request method.
    ///   - uri: the Request-URI.
    ///   - algorithm: `MD5`, `MD5-sess` or `nil` (MD5).
    ///   - qop: `auth` or `nil`.
    ///   - nonceCount: the nc (with qop).
    ///   - clientNonce: the cnonce (with qop or MD5-sess).
    /// - Returns: 32 lowercase hex digits.
    public static func response(username: String, password: String, realm: String, nonce: String, method: String, uri: String,
                                algorithm: String? = nil, qop: String? = nil, nonceCount: String? = nil,
                                clientNonce: String? = nil) -> String {
        var ha1 = MD5.hexDigest("\(username):\(realm):\(password)")
        if algorithm?.lowercased() == "md5-sess" { ha1 = MD5.hexDigest("\(ha1):\(nonce):\(clientNonce ?? "")") }
        let ha2 = MD5.hexDigest("\(method):\(uri)")
        if let qop {
            return MD5.hexDigest("\(ha1):\(nonce):\(nonceCount ?? ""):\(clientNonce ?? ""):\(qop):\(ha2)")
        }
        return MD5.hexDigest("\(ha1):\(nonce):\(ha2)")
    }
}

/// The session keys of one SRTP/SRTCP direction (RFC 3711 §4.3): what the packet transform uses, derived from a
/// master key and salt with the AES-CM PRF (``SRTPKeyDerivation``) or given directly (test vectors, RFC 7714 §16).
public struct SRTPSessionKeys: Sendable, Hashable {
    /// The keys of one of the two packet kinds.
    public struct Keys: Sendable, Hashable {
        /// The session encryption key `k_e` (16 bytes).
        public let encryptionKey: [UInt8]
        /// The session salt `k_s` (14 bytes for AES-CM, 12 for GCM).
        public let salt: [UInt8]
        /// The session authentication key `k_a` (20 bytes for HMAC-SHA1; empty for GCM).
        public let authenticationKey: [UInt8]

        /// Keys as given.
        /// - Parameters:
        ///   - encryptionKey: `k_e`.
        ///   - salt: `k_s`.
        ///   - authenticationKey: `k_a` (empty for GCM).
        public init(encryptionKey: [UInt8], salt: [UInt8], authenticationKey: [UInt8]) {
            self.encryptionKey = encryptionKey
            self.salt = salt
            self.authenticationKey = authenticationKey
        }
    }

    /// The profile the keys are for.
    public let profile: SRTPProtectionProfile
    /// The SRTP keys (labels 0, 1, 2).
    public let rtp: Keys
    /// The SRTCP keys (labels 3, 4, 5).
    public let rtcp: Keys

    /// Session keys as given, checked for length.
    /// - Parameters:
    ///   - profile: the profile.
    ///   - rtp: the SRTP keys.
    ///   - rtcp: the SRTCP keys.
    /// - Throws: ``SRTPError/keyLength(field:expected:actual:)``.
    public init(profile: SRTPProtectionProfile, rtp: Keys, rtcp: Keys) throws(SRTPError) {
        for (name, keys) in [("SRTP", rtp), ("SRTCP", rtcp)] {
            guard keys.encryptionKey.count == profile.keyLength else {
                throw .keyLength(field: "\(name) session key", expected: profile.keyLength, actual: keys.encryptionKey.count)
            }
            guard keys.salt.count == profile.saltLength else {
                throw .keyLength(field: "\(name) session salt", expected: profile.saltLength, actual: keys.salt.count)
            }
            guard keys.authenticationKey.count == profile.authenticationKeyLength else {
                throw .keyLength(field: "\(name) authentication key", expected: profile.authenticationKeyLength,
                                 actual: keys.authenticationKey.count)
            }
        }
        self.profile = profile
        self.rtp = rtp
        self.rtcp = rtcp
    }

    /// Derives the six session keys of a master key with a key derivation rate of 0 (RFC 3711 §4.3.1–§4.3.3; for
    /// GCM with the 12-byte master salt, RFC 7714 §11).
    /// - Parameter material: the master key and salt.
    /// - Throws: ``SRTPError/unavailable`` without OpenSSL, ``SRTPError/cipherFailed(operation:)``.
    public init(deriving material: SRTPKeyingMaterial) throws(SRTPError) {
        let profile = material.profile
        func keys(_ base: UInt8) throws(SRTPError) -> Keys {
            let derive = { (label: UInt8, length: Int) throws(SRTPError) -> [UInt8] in
                try SRTPKeyDerivation.derive(masterKey: material.masterKey, masterSalt: material.masterSalt,
                                             label: label, length: length)
            }
            return Keys(encryptionKey: try derive(base, profile.keyLength),
                        salt: try derive(base + 2, profile.saltLength),
                        authenticationKey: profile.authenticationKeyLength == 0
                            ? [] : try derive(base + 1, profile.authenticationKeyLength))
        }
        try self.init(profile: profile, rtp: try keys(0), rtcp: try keys(3))
    }
}

/// One direction's master key and master salt (RFC 3711 §3.2.1), as DTLS-SRTP exports them (RFC 5764 §4.2) or
/// as SDES carries them.
public struct SRTPKeyingMaterial: Sendable, Hashable {
    /// The protection profile the key belongs to.
    public let profile: SRTPProtectionProfile
    /// The master key (16 bytes).
    public let masterKey: [UInt8]
    /// The master salt (14 bytes for AES-CM, 12 for GCM).
    public let masterSalt: [UInt8]

    /// Keying material of a profile, checked for length.
    /// - Parameters:
    ///   - profile: the protection profile.
    ///   - masterKey: `profile.keyLength` bytes.
    ///   - masterSalt: `profile.saltLength` bytes.
    /// - Throws: ``SRTPError/keyLength(field:expected:actual:)`` when a length does not match the profile.
    public init(profile: SRTPProtectionProfile, masterKey: [UInt8], masterSalt: [UInt8]) throws(SRTPError) {
        guard masterKey.count == profile.keyLength else {
            throw .keyLength(field: "master key", expected: profile.keyLength, actual: masterKey.count)
        }
        guard masterSalt.count == profile.saltLength else {
            throw .keyLength(field: "master salt", expected: profile.saltLength, actual: masterSalt.count)
        }
        self.profile = profile
        self.masterKey = masterKey
        self.masterSalt = masterSalt
    }

    /// Splits the keying material exported by DTLS-SRTP into the client's and the server's master key and salt:
    /// `client_write_SRTP_master_key | server_write_SRTP_master_key | client_write_SRTP_master_salt |
    /// server_write_SRTP_master_salt` (RFC 5764 §4.2).
    /// - Parameters:
    ///   - exported: `2 × (keyLength + saltLength)` bytes from the exporter labelled `EXTRACTOR-dtls_srtp`.
    ///   - profile: the negotiated profile.
    /// - Returns: the client's and the server's keying material.
    /// - Throws: ``SRTPError/keyLength(field:expected:actual:)`` when `exported` has the wrong size.
    public static func splitDTLSExport(_ exported: [UInt8], profile: SRTPProtectionProfile)
        throws(SRTPError) -> (client: SRTPKeyingMaterial, server: SRTPKeyingMaterial)
    {
        let key = profile.keyLength, salt = profile.saltLength
        guard exported.count == 2 * (key + salt) else {
            throw .keyLength(field: "exported keying material", expected: 2 * (key + salt), actual: exported.count)
        }
        let client = try SRTPKeyingMaterial(profile: profile, masterKey: Array(exported[0..<key]),
                                            masterSalt: Array(exported[2 * key..<2 * key + salt]))
        let server = try SRTPKeyingMaterial(profile: profile, masterKey: Array(exported[key..<2 * key]),
                                            masterSalt: Array(exported[2 * key + salt..<2 * key + 2 * salt]))
        return (client, server)
    }
}

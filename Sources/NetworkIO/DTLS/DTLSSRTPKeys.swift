import SRTP

/// The SRTP keys a DTLS-SRTP handshake produced (RFC 5764 §4.2): the negotiated profile and the client's and the
/// server's master key and salt, split from the exporter's output labelled `EXTRACTOR-dtls_srtp`.
public struct DTLSSRTPKeys: Sendable, Hashable {
    /// The profile both sides agreed on (use_srtp).
    public let profile: SRTPProtectionProfile
    /// What the DTLS client protects its packets with (`client_write_SRTP_master_key` and salt).
    public let client: SRTPKeyingMaterial
    /// What the DTLS server protects its packets with.
    public let server: SRTPKeyingMaterial
    /// This side's role.
    public let role: DTLSRole
    /// The exporter's output as it came (`2 × (key + salt)` bytes).
    public let exported: [UInt8]

    /// Keys from the exporter's output.
    /// - Parameters:
    ///   - exported: the keying material.
    ///   - profile: the negotiated profile.
    ///   - role: this side's role.
    /// - Throws: ``SRTPError/keyLength(field:expected:actual:)`` when the length does not fit the profile.
    public init(exported: [UInt8], profile: SRTPProtectionProfile, role: DTLSRole) throws(SRTPError) {
        let split = try SRTPKeyingMaterial.splitDTLSExport(exported, profile: profile)
        self.profile = profile
        self.client = split.client
        self.server = split.server
        self.role = role
        self.exported = exported
    }

    /// The keys this side protects what it sends with (for an ``SRTPContext`` that protects).
    public var local: SRTPKeyingMaterial { role == .client ? client : server }
    /// The keys the peer protects what it sends with (for an ``SRTPContext`` that unprotects).
    public var remote: SRTPKeyingMaterial { role == .client ? server : client }
}

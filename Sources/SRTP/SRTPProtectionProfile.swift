/// An SRTP protection profile: the cipher, the authentication and the key sizes of one SRTP/SRTCP session
/// (RFC 5764 §4.1.2 for AES_CM_128_HMAC_SHA1_80, RFC 7714 §14.2 for AEAD_AES_128_GCM).
public enum SRTPProtectionProfile: Sendable, Hashable, CaseIterable {
    /// `SRTP_AES128_CM_SHA1_80` (RFC 5764 §4.1.2): AES-128 in counter mode (RFC 3711 §4.1.1) and an 80-bit
    /// HMAC-SHA1 tag (RFC 3711 §4.2.1); 16-byte master key, 14-byte master salt.
    case aes128CounterModeHMACSHA1_80
    /// `SRTP_AEAD_AES_128_GCM` (RFC 7714 §14.2): AES-128-GCM with a 16-byte tag; 16-byte master key, 12-byte master salt.
    case aeadAES128GCM

    /// The two-byte identifier of the profile in DTLS's use_srtp extension (RFC 5764 §4.1.2, RFC 7714 §14.2).
    public var dtlsIdentifier: UInt16 {
        switch self {
        case .aes128CounterModeHMACSHA1_80: 0x0001
        case .aeadAES128GCM: 0x0007
        }
    }

    /// The profile's name in DTLS-SRTP and OpenSSL (`SRTP_AES128_CM_SHA1_80`, `SRTP_AEAD_AES_128_GCM`).
    public var dtlsName: String {
        switch self {
        case .aes128CounterModeHMACSHA1_80: "SRTP_AES128_CM_SHA1_80"
        case .aeadAES128GCM: "SRTP_AEAD_AES_128_GCM"
        }
    }

    /// The profile with this DTLS identifier, or `nil` for one this package does not implement.
    /// - Parameter dtlsIdentifier: the identifier from the use_srtp extension.
    public init?(dtlsIdentifier: UInt16) {
        guard let profile = Self.allCases.first(where: { $0.dtlsIdentifier == dtlsIdentifier }) else { return nil }
        self = profile
    }

    /// Bytes of the master key and of the session encryption key (RFC 3711 §8.2; RFC 7714 §14.2).
    public var keyLength: Int { 16 }

    /// Bytes of the master salt and of the session salt: 14 for AES-CM (RFC 3711 §4.1.1), 12 for GCM (RFC 7714 §14.2).
    public var saltLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1_80: 14
        case .aeadAES128GCM: 12
        }
    }

    /// Bytes of the session authentication key: 20 for HMAC-SHA1 (RFC 3711 §4.2.1); GCM has none.
    public var authenticationKeyLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1_80: 20
        case .aeadAES128GCM: 0
        }
    }

    /// Bytes of the authentication tag appended to every protected packet: 10 (HMAC-SHA1-80) or 16 (GCM).
    public var tagLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1_80: 10
        case .aeadAES128GCM: 16
        }
    }

    /// Bytes a protected RTP packet is longer than the plain one (the tag; RFC 3711 §3.1 with no MKI).
    public var rtpOverhead: Int { tagLength }

    /// Bytes a protected RTCP packet is longer than the plain one: the tag and the 4-byte E flag and SRTCP
    /// index (RFC 3711 §3.4; RFC 7714 §9.2).
    public var rtcpOverhead: Int { tagLength + 4 }
}

#if OpenSSL
import COpenSSL
#endif

/// The SRTP key derivation function (RFC 3711 §4.3.1, §4.3.3): the AES-CM PRF keyed with the master key, run on
/// `x = (label || r) XOR master_salt` (r = 0: key derivation rate 0), `x × 2^16` as the counter.
public enum SRTPKeyDerivation {
    /// The labels of RFC 3711 §4.3.2.
    public enum Label: UInt8, Sendable {
        /// SRTP encryption key.
        case rtpEncryption = 0
        /// SRTP authentication key.
        case rtpAuthentication = 1
        /// SRTP salt.
        case rtpSalt = 2
        /// SRTCP encryption key.
        case rtcpEncryption = 3
        /// SRTCP authentication key.
        case rtcpAuthentication = 4
        /// SRTCP salt.
        case rtcpSalt = 5
    }

    /// `length` bytes of PRF output for `label` (RFC 3711 §4.3.1; r = 0).
    /// - Parameters:
    ///   - masterKey: the 16-byte master key.
    ///   - masterSalt: the 14-byte master salt, or the 12-byte one of GCM (padded with zeros to 14, RFC 7714 §11).
    ///   - label: the label (0–5; ``Label``).
    ///   - length: bytes of output.
    /// - Returns: the derived key.
    /// - Throws: ``SRTPError/unavailable`` without OpenSSL; ``SRTPError/keyLength(field:expected:actual:)``;
    ///   ``SRTPError/cipherFailed(operation:)``.
    public static func derive(masterKey: [UInt8], masterSalt: [UInt8], label: UInt8, length: Int) throws(SRTPError) -> [UInt8] {
        guard masterKey.count == 16 else { throw .keyLength(field: "master key", expected: 16, actual: masterKey.count) }
        guard masterSalt.count == 14 || masterSalt.count == 12 else {
            throw .keyLength(field: "master salt", expected: 14, actual: masterSalt.count)
        }
        var counter = [UInt8](repeating: 0, count: 16)
        for (index, byte) in masterSalt.enumerated() { counter[index] = byte }
        counter[7] ^= label  // key_id = label || r occupies the low 7 bytes of the 14-byte x
        #if OpenSSL
        let cipher = try AESCounterMode(key: masterKey)
        var output = [UInt8](repeating: 0, count: length)
        let failed = counter.withUnsafeBytes { iv in
            output.withUnsafeMutableBytes { out in
                cipher.apply(iv: iv.baseAddress!, to: out.baseAddress!, count: length) == false
            }
        }
        if failed { throw .cipherFailed(operation: "AES-CM key derivation") }
        return output
        #else
        throw .unavailable
        #endif
    }
}

/// A certificate fingerprint as SDP carries it (`a=fingerprint:sha-256 AB:CD:…`, RFC 8122 §5): the SHA-256 hash of
/// the DER certificate. Only SHA-256 is accepted (what browsers send; RFC 8122 §5 lets us refuse weaker hashes).
public struct DTLSFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The hash function's name in SDP (`sha-256`).
    public let algorithm: String
    /// The 32 bytes of the hash.
    public let bytes: [UInt8]

    /// A SHA-256 fingerprint of 32 bytes.
    /// - Parameter sha256: the hash.
    /// - Throws: ``DTLSError/malformedFingerprint(text:reason:)`` unless it has 32 bytes.
    public init(sha256: [UInt8]) throws(DTLSError) {
        guard sha256.count == 32 else {
            throw .malformedFingerprint(text: "\(sha256.count) bytes", reason: "a SHA-256 fingerprint has 32 bytes")
        }
        algorithm = "sha-256"
        bytes = sha256
    }

    /// Parses the value of an SDP `a=fingerprint` attribute (RFC 8122 §5: `hash-func SP fingerprint`).
    /// - Parameter sdp: for example `sha-256 AB:CD:…` (the hash name in any case).
    /// - Throws: ``DTLSError/malformedFingerprint(text:reason:)`` naming what is wrong.
    public init(sdp: String) throws(DTLSError) {
        let parts = sdp.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw .malformedFingerprint(text: sdp, reason: "expected a hash name and a fingerprint separated by a space")
        }
        guard parts[0].lowercased() == "sha-256" else {
            throw .malformedFingerprint(text: sdp, reason: "hash function \(parts[0]) is not sha-256")
        }
        let groups = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard groups.count == 32 else {
            throw .malformedFingerprint(text: sdp, reason: "\(groups.count) bytes, a SHA-256 fingerprint has 32")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for (index, group) in groups.enumerated() {
            guard group.count == 2, let byte = UInt8(group, radix: 16) else {
                throw .malformedFingerprint(text: sdp, reason: "byte \(index) \"\(group)\" is not two hex digits")
            }
            bytes.append(byte)
        }
        algorithm = "sha-256"
        self.bytes = bytes
    }

    /// The attribute's value: `sha-256` and the bytes as uppercase hex pairs joined by colons (RFC 8122 §5).
    public var sdpValue: String {
        "\(algorithm) " + bytes.map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined(separator: ":")
    }

    /// The same as ``sdpValue``.
    public var description: String { sdpValue }
}

import NetworkIO

extension FuzzTargets {
    /// One certificate for every DTLS fuzz input (making one costs a key generation); `nil` without OpenSSL.
    private static let dtlsCertificate: DTLSCertificate? = try? DTLSCertificate()

    /// The DTLS engine fed hostile records (RFC 6347): byte 0 picks the role, the rest is cut into datagrams by 2-byte
    /// big-endian lengths and fed one by one; every call returns or throws a typed error, a failed session keeps
    /// failing, and no datagram it sends is larger than its limit. A server also gets a retransmission timeout.
    static func dtls(_ bytes: [UInt8]) {
        guard let first = bytes.first, let certificate = dtlsCertificate,
              let fingerprint = try? DTLSFingerprint(sha256: [UInt8](repeating: 0xAB, count: 32))
        else { return }
        let role: DTLSRole = first & 1 == 0 ? .server : .client
        guard let engine = try? DTLSEngine(role: role, certificate: certificate, remoteFingerprint: fingerprint) else { return }
        _ = try? engine.start()
        var offset = 1
        var datagrams = 0
        while offset + 2 <= bytes.count, datagrams < 32 {
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            let end = min(bytes.count, offset + length)
            let failedBefore = engine.failure != nil
            do {
                _ = try engine.feed(Array(bytes[offset..<end]))
                precondition(!failedBefore, "DTLS: a failed session accepted a datagram")
            } catch {
                precondition(engine.failure != nil, "DTLS: an error without the session failing")
            }
            offset = end
            datagrams += 1
            for datagram in engine.takeOutgoingDatagrams() {
                precondition(datagram.count <= engine.maximumDatagramSize || datagram.count <= 13 + 16_384 + 256,
                             "DTLS: an oversized datagram")
            }
        }
        _ = engine.retransmissionTimeout
        _ = try? engine.handleTimeout()
        _ = engine.takeOutgoingDatagrams()
    }
}

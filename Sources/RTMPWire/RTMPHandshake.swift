/// The RTMP handshake (Adobe RTMP specification 1.0 §5.2): C0/C1/C2 and S0/S1/S2, each of C1, C2, S1, S2 1536 bytes.
///
/// A client here sends the plain handshake (§5.2.3: zero in C1's second field, random bytes, C2 echoing S1). A
/// server answers the plain one by echoing C1 in S2 (§5.2.4), and the digest handshake that Flash Player 9 and
/// later, ffmpeg, librtmp and OBS send — C1 carries a non-zero version and an HMAC-SHA256 digest at a position its
/// bytes name — with an S1 that carries the server's digest and an S2 signed with a key derived from the client's
/// digest, which those clients check before they go on.
package enum RTMPHandshake {
    /// The size of C1, C2, S1 and S2.
    package static let packetSize = 1536
    /// The protocol version of C0 and S0 (§5.2.2).
    package static let version: UInt8 = 3

    private static let keySuffix: [UInt8] = [
        0xF0, 0xEE, 0xC2, 0x4A, 0x80, 0x68, 0xBE, 0xE8, 0x2E, 0x00, 0xD0, 0xD1, 0x02, 0x9E, 0x7E, 0x57,
        0x6E, 0xEC, 0x5D, 0x2D, 0x29, 0x80, 0x6F, 0xAB, 0x93, 0xB8, 0xE6, 0x36, 0xCF, 0xEB, 0x31, 0xAE,
    ]
    /// "Genuine Adobe Flash Player 001" — the first 30 bytes sign a client's C1.
    package static let playerKey = Array("Genuine Adobe Flash Player 001".utf8) + keySuffix
    /// "Genuine Adobe Flash Media Server 001" — the first 36 bytes sign a server's S1; all 68 derive S2's key.
    package static let serverKey = Array("Genuine Adobe Flash Media Server 001".utf8) + keySuffix

    /// Where the digest sits in a 1536-byte packet, for either scheme: scheme 0 reads its offset from bytes
    /// 8–11, scheme 1 from bytes 772–775.
    package static func digestPosition(in packet: [UInt8], scheme: Int) -> Int {
        let base = scheme == 0 ? 8 : 772
        let sum = Int(packet[base]) + Int(packet[base + 1]) + Int(packet[base + 2]) + Int(packet[base + 3])
        return sum % 728 + base + 4
    }

    /// HMAC-SHA256 of the packet without the 32 digest bytes at `position`.
    package static func digest(of packet: [UInt8], skipping position: Int, key: ArraySlice<UInt8>) -> [UInt8] {
        SHA256.hmac(key: Array(key), message: Array(packet[0..<position]) + Array(packet[(position + 32)...]))
    }

    /// C0 and C1 of the plain handshake: version 3, time 0, zero, 1528 pseudo-random bytes.
    /// - Parameter seed: seeds the random bytes (they need not be secret).
    /// - Returns: 1537 bytes.
    package static func clientHello(seed: UInt64) -> [UInt8] {
        var bytes = [version] + [UInt8](repeating: 0, count: 8)
        bytes += randomBytes(count: packetSize - 8, seed: seed)
        return bytes
    }

    /// C2 for a server's S1 (§5.2.4): S1's time, our read time, S1's random bytes.
    /// - Parameter s1: the server's S1.
    /// - Returns: 1536 bytes.
    package static func clientAcknowledgement(of s1: [UInt8]) -> [UInt8] {
        var c2 = s1
        if c2.count >= 8 { for index in 4..<8 { c2[index] = 0 } }
        return c2
    }

    /// S0, S1 and S2 for a client's C1: the digest form when C1 carries a valid client digest, else the plain echo.
    /// - Parameters:
    ///   - c1: the client's 1536-byte C1.
    ///   - seed: seeds the random bytes.
    /// - Returns: 3073 bytes and whether the digest form was used.
    package static func serverResponse(to c1: [UInt8], seed: UInt64) -> (bytes: [UInt8], usedDigest: Bool) {
        var s1 = [UInt8](repeating: 0, count: 8) + randomBytes(count: packetSize - 8, seed: seed)
        guard c1.count == packetSize else { return ([version] + s1 + c1, false) }
        let clientVersion = c1[4..<8]
        if clientVersion.contains(where: { $0 != 0 }), let (scheme, clientDigest) = validClientDigest(in: c1) {
            // S1: a server version, and our digest at the position of the scheme the client used.
            s1[4] = 5; s1[5] = 0; s1[6] = 3; s1[7] = 1
            let position = digestPosition(in: s1, scheme: scheme)
            let serverDigest = digest(of: s1, skipping: position, key: serverKey[0..<36])
            s1.replaceSubrange(position..<(position + 32), with: serverDigest)
            // S2: random bytes signed with a key derived from the client's digest.
            var s2 = randomBytes(count: packetSize, seed: seed &+ 0x9E37_79B9)
            let key = SHA256.hmac(key: serverKey, message: clientDigest)
            let signature = SHA256.hmac(key: key, message: Array(s2[0..<(packetSize - 32)]))
            s2.replaceSubrange((packetSize - 32)..<packetSize, with: signature)
            return ([version] + s1 + s2, true)
        }
        var s2 = c1
        for index in 4..<8 { s2[index] = 0 }
        return ([version] + s1 + s2, false)
    }

    /// The scheme and digest of a C1 whose digest checks out under the player key, trying scheme 0 then 1.
    package static func validClientDigest(in c1: [UInt8]) -> (scheme: Int, digest: [UInt8])? {
        for scheme in [0, 1] {
            let position = digestPosition(in: c1, scheme: scheme)
            let expected = digest(of: c1, skipping: position, key: playerKey[0..<30])
            if Array(c1[position..<(position + 32)]) == expected { return (scheme, expected) }
        }
        return nil
    }

    /// Whether a server's S1 carries a valid server digest (the digest form), for tests and clients that check.
    package static func hasValidServerDigest(_ s1: [UInt8]) -> Bool {
        guard s1.count == packetSize else { return false }
        for scheme in [0, 1] {
            let position = digestPosition(in: s1, scheme: scheme)
            if Array(s1[position..<(position + 32)]) == digest(of: s1, skipping: position, key: serverKey[0..<36]) { return true }
        }
        return false
    }

    /// SplitMix64 bytes: the handshake's random field needs variety, not secrecy.
    package static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: mixed >> UInt64(shift))) }
        }
        return Array(bytes.prefix(count))
    }
}

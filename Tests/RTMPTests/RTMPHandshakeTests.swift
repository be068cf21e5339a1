import Testing
@testable import RTMPWire

/// The handshake (Adobe RTMP specification 1.0 §5.2) and the digest form Flash Player 9, ffmpeg and OBS send: the
/// server's S1 carries a digest the client can check, its S2 is signed with a key from the client's digest.
@Suite("RTMP handshake")
struct RTMPHandshakeTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("SHA-256 and HMAC-SHA256 match FIPS 180-4 and RFC 4231")
    func digests() {
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Self.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// A C1 the way a Flash Player 9 client makes it: a version, and the digest at scheme `scheme`'s position.
    static func flashC1(scheme: Int) -> [UInt8] {
        var c1 = [0, 0, 0, 0, 9, 0, 124, 2] + SplitMix64Bytes.make(count: 1528, seed: 11)
        let position = RTMPHandshake.digestPosition(in: c1, scheme: scheme)
        let digest = RTMPHandshake.digest(of: c1, skipping: position, key: RTMPHandshake.playerKey[0..<30])
        c1.replaceSubrange(position..<(position + 32), with: digest)
        return c1
    }

    @Test("a digest C1 (either scheme) gets a digest S1 and an S2 signed from the client's digest", arguments: [0, 1])
    func digestHandshake(scheme: Int) {
        let c1 = Self.flashC1(scheme: scheme)
        let (response, digest) = RTMPHandshake.serverResponse(to: c1, seed: 1)
        #expect(digest && response.count == 3073 && response[0] == 3)
        let s1 = Array(response[1...1536]), s2 = Array(response[1537...])
        #expect(RTMPHandshake.hasValidServerDigest(s1))
        let clientPosition = RTMPHandshake.digestPosition(in: c1, scheme: scheme)
        let key = SHA256.hmac(key: RTMPHandshake.serverKey, message: Array(c1[clientPosition..<(clientPosition + 32)]))
        #expect(SHA256.hmac(key: key, message: Array(s2[0..<1504])) == Array(s2[1504...]))
    }

    @Test("a plain C1 (zero version) is echoed in S2; a C1 with a version but a wrong digest too")
    func plainHandshake() {
        let plain = [UInt8](repeating: 0, count: 8) + SplitMix64Bytes.make(count: 1528, seed: 5)
        let (response, digest) = RTMPHandshake.serverResponse(to: plain, seed: 2)
        #expect(!digest && Array(response[1537...]) == plain)
        var forged = Self.flashC1(scheme: 0)
        forged[RTMPHandshake.digestPosition(in: forged, scheme: 0)] ^= 1
        #expect(!RTMPHandshake.serverResponse(to: forged, seed: 3).usedDigest)
    }
}

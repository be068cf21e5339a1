import Bitstream
import Testing
import RTSPMessages

@Suite("RTSP message codec")
struct RTSPMessageTests {
    static let describe = "DESCRIBE rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 2\r\nAccept: application/sdp\r\n"
        + "User-Agent: Lavf59.27.100\r\n\r\n"

    private func items(_ bytes: [UInt8], chunk: Int, limits: RTSPMessageLimits = RTSPMessageLimits()) throws -> [RTSPStreamItem] {
        var parser = RTSPStreamParser(limits: limits)
        var out: [RTSPStreamItem] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            parser.append(Array(bytes[offset..<end]))
            offset = end
            while let item = try parser.next() { out.append(item) }
        }
        return out
    }

    @Test("A request, a response with a body and interleaved frames, in every chunking of one stream")
    func mixedStream() throws {
        let sdp = Array("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=x\r\n".utf8)
        let response = RTSPResponse(status: .ok, cseq: 2, headers: ["Content-Type": "application/sdp"], body: sdp)
        let rtp = (0..<1400).map { UInt8(truncatingIfNeeded: $0) }
        var stream = Array(Self.describe.utf8) + response.serialized()
        stream += RTSPInterleavedFrame.serialized(channel: 0, payload: rtp)!
        stream += RTSPInterleavedFrame.serialized(channel: 1, payload: [0x80, 0xC8])!
        stream += Array("\r\nGET_PARAMETER rtsp://h/live RTSP/1.0\r\nCSeq: 3\r\nSession: 1234ABCD\r\n\r\n".utf8)
        for chunk in [1, 2, 3, 5, 7, 64, 1000, stream.count] {
            let parsed = try items(stream, chunk: chunk)
            #expect(parsed.count == 5, "chunk \(chunk)")
            guard parsed.count == 5 else { continue }
            guard case let .request(first) = parsed[0], case let .response(second) = parsed[1],
                  case let .interleaved(third) = parsed[2], case let .interleaved(fourth) = parsed[3],
                  case let .request(fifth) = parsed[4] else {
                Issue.record("wrong item kinds for chunk \(chunk)")
                continue
            }
            #expect(first.method == .describe && first.uri == "rtsp://127.0.0.1:8554/live" && first.cseq == 2)
            #expect(first.headers["accept"] == "application/sdp")
            #expect(second.status == .ok && second.body == sdp && second.cseq == 2)
            #expect(third.channel == 0 && Array(third.payload) == rtp)
            #expect(fourth.channel == 1 && Array(fourth.payload) == [0x80, 0xC8])
            #expect(fifth.method == .getParameter && fifth.headers["Session"] == "1234ABCD")
        }
    }

    @Test("Serialize then parse gives the same request, with Content-Length set")
    func roundTrip() throws {
        let request = RTSPRequest(method: .setParameter, uri: "rtsp://h/live", cseq: 9,
                                  headers: ["Content-Type": "text/parameters"], body: Array("a: 1\r\n".utf8))
        let bytes = request.serialized()
        #expect(String(decoding: bytes, as: UTF8.self).contains("Content-Length: 6\r\n"))
        guard case let .request(parsed) = try items(bytes, chunk: bytes.count).first else { Issue.record("no request"); return }
        #expect(parsed.method == request.method && parsed.body == request.body && parsed.cseq == 9)
    }

    @Test("Hostile input gets a typed error with the status a server answers")
    func hostile() throws {
        let oneMegabyte = Array("DESCRIBE rtsp://h/".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(throws: RTSPParseError.startLineTooLong(limit: 8192)) { try items(oneMegabyte, chunk: 65536) }
        #expect(RTSPParseError.startLineTooLong(limit: 8192).status == .requestURITooLarge)
        var endless = Array("OPTIONS * RTSP/1.0\r\n".utf8)
        for index in 0..<200 { endless += Array("X-\(index): y\r\n".utf8) }
        #expect(throws: RTSPParseError.tooManyHeaders(limit: 64)) { try items(endless, chunk: 512) }
        let huge = Array("OPTIONS * RTSP/1.0\r\nX: ".utf8) + [UInt8](repeating: UInt8(ascii: "b"), count: 20000)
        #expect(throws: RTSPParseError.headerSectionTooLarge(limit: 16384)) { try items(huge, chunk: 4096) }
        let body = Array("ANNOUNCE rtsp://h/x RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 99999999\r\n\r\n".utf8)
        #expect(throws: RTSPParseError.bodyTooLarge(length: 99_999_999, limit: 65536)) { try items(body, chunk: 100) }
        let badLength = Array("ANNOUNCE rtsp://h/x RTSP/1.0\r\nContent-Length: -5\r\n\r\n".utf8)
        #expect(throws: RTSPParseError.invalidContentLength("-5")) { try items(badLength, chunk: 100) }
        #expect(throws: RTSPParseError.garbage(offset: 0, byte: 0x00)) { try items([0, 1, 2, 3], chunk: 4) }
        #expect(throws: RTSPParseError.unsupportedVersion("RTSP/2.0")) { try items(Array("OPTIONS * RTSP/2.0\r\n\r\n".utf8), chunk: 9) }
        #expect(throws: RTSPParseError.malformedStartLine("GET / HTTP/1.1")) { try items(Array("GET / HTTP/1.1\r\n\r\n".utf8), chunk: 9) }
        let badHeader = Array("OPTIONS * RTSP/1.0\r\nno colon here\r\n\r\n".utf8)
        #expect(throws: RTSPParseError.malformedHeader(line: 1, text: "no colon here")) { try items(badHeader, chunk: 9) }
        // The error is sticky: the stream cannot be resynchronised.
        var parser = RTSPStreamParser()
        parser.append([0xFF])
        #expect(throws: RTSPParseError.self) { try parser.next() }
        parser.append(Array("OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8))
        #expect(throws: RTSPParseError.self) { try parser.next() }
    }

    @Test("An unknown method parses (the server answers 501); a bad CSeq reads as nil (the server answers 400)")
    func unknownMethodAndBadCSeq() throws {
        let bytes = Array("BREW rtsp://h/live RTSP/1.0\r\nCSeq: 1x\r\n\r\n".utf8)
        guard case let .request(request) = try items(bytes, chunk: 7).first else { Issue.record("no request"); return }
        #expect(request.method.rawValue == "BREW")
        #expect(request.cseq == nil)
        #expect(RTSPRequest(method: .options, uri: "*", headers: ["CSeq": "12345678901"]).cseq == nil)
        #expect(RTSPRequest(method: .options, uri: "*", headers: ["CSeq": "0042"]).cseq == 42)
    }

    @Test("Header values never carry a line break into the output")
    func noInjection() {
        let response = RTSPResponse(status: .ok, cseq: 1, headers: ["X": "a\r\nInjected: yes"])
        #expect(!String(decoding: response.serialized(), as: UTF8.self).contains("\r\nInjected"))
    }
}

@Suite("RTSP headers")
struct RTSPHeaderTests {
    @Test("Transport: what ffmpeg and GStreamer send, and what a server answers")
    func transport() throws {
        let offers = try RTSPTransportHeader.parseList("RTP/AVP/UDP;unicast;client_port=5000-5001;mode=\"PLAY\", RTP/AVP/TCP;unicast;interleaved=0-1")
        #expect(offers.count == 2)
        #expect(offers[0].lowerTransport == .udp && offers[0].clientPorts == 5000...5001 && offers[0].mode == "PLAY")
        #expect(offers[1].lowerTransport == .tcp && offers[1].interleavedChannels == 0...1)
        var reply = offers[0]
        reply.serverPorts = 20100...20101
        reply.ssrc = 0xDEAD_BEEF
        reply.mode = nil
        #expect(reply.headerValue == "RTP/AVP;unicast;client_port=5000-5001;server_port=20100-20101;ssrc=DEADBEEF")
        #expect(try RTSPTransportHeader(parsing: reply.headerValue) == reply)
        #expect(try RTSPTransportHeader(parsing: "RTP/AVP;unicast;client_port=6970").clientPorts == 6970...6971)
        #expect(throws: RTSPHeaderError.self) { try RTSPTransportHeader(parsing: "RTP/AVP;client_port=70000-70001") }
        #expect(throws: RTSPHeaderError.self) { try RTSPTransportHeader(parsing: "RTP/AVP/SCTP;unicast") }
        #expect(throws: RTSPHeaderError.self) { try RTSPTransportHeader(parsing: "RTP/AVP/TCP;interleaved=300-301") }
        #expect(throws: RTSPHeaderError.self) { try RTSPTransportHeader.parseList(String(repeating: "x", count: 10000)) }
    }

    @Test("Session with timeout, Range, RTP-Info and Public")
    func otherHeaders() throws {
        let session = try RTSPSessionHeader(parsing: "A1B2C3D4E5F6;timeout=30")
        #expect(session == RTSPSessionHeader(identifier: "A1B2C3D4E5F6", timeout: 30))
        #expect(session.headerValue == "A1B2C3D4E5F6;timeout=30")
        #expect(throws: RTSPHeaderError.self) { try RTSPSessionHeader(parsing: ";timeout=3") }
        #expect(throws: RTSPHeaderError.self) { try RTSPSessionHeader(parsing: "abc;timeout=-3") }
        #expect(try RTSPRange(parsing: "npt=0.000-") == RTSPRange(start: 0))
        #expect(try RTSPRange(parsing: "npt=now-") == RTSPRange(start: nil))
        #expect(try RTSPRange(parsing: "npt=0:01:02.5-70") == RTSPRange(start: 62.5, end: 70))
        #expect(RTSPRange(start: 1.5, end: 3).headerValue == "npt=1.500-3.000")
        #expect(throws: RTSPHeaderError.self) { try RTSPRange(parsing: "smpte=0:10:20-") }
        let info = try RTPInfoHeader(parsing: "url=rtsp://h/live/trackID=0;seq=17;rtptime=123456,url=rtsp://h/live/trackID=1;seq=5")
        #expect(info.entries == [.init(url: "rtsp://h/live/trackID=0", sequenceNumber: 17, rtpTime: 123_456),
                                 .init(url: "rtsp://h/live/trackID=1", sequenceNumber: 5)])
        #expect(try RTPInfoHeader(parsing: info.headerValue) == info)
        #expect(throws: RTSPHeaderError.self) { try RTPInfoHeader(parsing: "url=x;seq=99999") }
        #expect(RTSPMethod.methods(inPublicHeader: "OPTIONS, DESCRIBE,SETUP") == [.options, .describe, .setup])
        #expect(RTSPMethod.publicHeaderValue([.options, .play]) == "OPTIONS, PLAY")
    }
}

@Suite("RTSP authentication")
struct RTSPAuthenticationTests {
    @Test("MD5 gives the RFC 1321 §A.5 test-suite digests")
    func md5Vectors() {
        let vectors = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (input, digest) in vectors { #expect(MD5.hexDigest(input) == digest, "MD5(\"\(input)\")") }
        // A million "a" (the long vector of the NIST/RFC test sets), fed in uneven pieces across block boundaries.
        var md5 = MD5()
        var fed = 0
        for size in [1, 63, 64, 65, 127, 999] {
            md5.update([UInt8](repeating: UInt8(ascii: "a"), count: size))
            fed += size
        }
        md5.update([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000 - fed))
        #expect(MD5.hex(md5.finalize()) == "7707d6ae4e027c70eea2a935c2296f21")
    }

    @Test("Digest response of the RFC 2617 §3.5 example; Basic of the RFC 7617 §2 example")
    func rfcExamples() throws {
        let response = DigestCredentials.response(username: "Mufasa", password: "Circle Of Life", realm: "testrealm@host.com",
                                                  nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", method: "GET", uri: "/dir/index.html",
                                                  qop: "auth", nonceCount: "00000001", clientNonce: "0a4f113b")
        #expect(response == "6629fae49393a05397450978507c4ef1")
        #expect(RTSPClientAuthenticator.basicAuthorization(user: "Aladdin", password: "open sesame") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(Base64.decode("QWxhZGRpbjpvcGVuIHNlc2FtZQ==") == Array("Aladdin:open sesame".utf8))
        #expect(Base64.decode("QW*=") == nil)
        let challenge = try DigestChallenge(parsing: #"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#)
        #expect(challenge.realm == "testrealm@host.com" && challenge.qopOptions == ["auth", "auth-int"] && challenge.opaque == "5ccc069c403ebaf9f0171e9517f40e41")
        #expect(try DigestChallenge(parsing: challenge.headerValue) == challenge)
        #expect(throws: RTSPHeaderError.self) { try DigestChallenge(parsing: #"Digest realm="unterminated"#) }
    }

    @Test("Our client answers our server's challenge; a wrong password, another user and a forged nonce are rejected")
    func clientAndServer() throws {
        let server = RTSPServerAuthenticator(realm: "cam", user: "admin", password: "s3cret", allowsBasic: true)
        #expect(server.verify(nil, method: .describe) == .missing)
        var client = RTSPClientAuthenticator(user: "admin", password: "s3cret")
        let before = client.authorization(method: .describe, uri: "rtsp://h/live")
        #expect(before == nil)
        let accepted1 = client.accept(challenges: server.challengeHeaderValues())
        #expect(accepted1)
        for method in [RTSPMethod.describe, .setup, .play] {
            let answer = client.authorization(method: method, uri: "rtsp://h/live")
            let value = try #require(answer)
            #expect(server.verify(value, method: method) == .accepted)
            #expect(server.verify(value, method: .teardown) == .rejected)
        }
        var wrong = RTSPClientAuthenticator(user: "admin", password: "guess")
        let accepted2 = wrong.accept(challenges: server.challengeHeaderValues())
        #expect(accepted2)
        let wrongAnswer = wrong.authorization(method: .describe, uri: "rtsp://h/live")
        #expect(server.verify(wrongAnswer, method: .describe) == .rejected)
        let forged = DigestCredentials(username: "admin", realm: "cam", nonce: "0.abc", uri: "rtsp://h/live",
                                       response: DigestCredentials.response(username: "admin", password: "s3cret", realm: "cam",
                                                                            nonce: "0.abc", method: "DESCRIBE", uri: "rtsp://h/live"))
        #expect(server.verify(forged.headerValue, method: .describe) == .rejected)
        #expect(server.verify(RTSPClientAuthenticator.basicAuthorization(user: "admin", password: "s3cret"), method: .play) == .accepted)
        #expect(server.verify(RTSPClientAuthenticator.basicAuthorization(user: "admin", password: "x"), method: .play) == .rejected)
        let digestOnly = RTSPServerAuthenticator(user: "admin", password: "s3cret")
        #expect(digestOnly.verify(RTSPClientAuthenticator.basicAuthorization(user: "admin", password: "s3cret"), method: .play) == .rejected)
    }

    @Test("The legacy no-qop Digest cameras send: the answer is MD5(HA1:nonce:HA2), with no nc or cnonce")
    func legacyDigest() throws {
        var client = RTSPClientAuthenticator(user: "u", password: "p")
        let accepted3 = client.accept(challenges: [#"Basic realm="x""#, #"Digest realm="IP Camera", nonce="abc123""#])
        #expect(accepted3)
        let answer = client.authorization(method: .describe, uri: "rtsp://cam/stream")
        let value = try #require(answer)
        let credentials = try DigestCredentials(parsing: value)
        #expect(credentials.qop == nil && credentials.nonceCount == nil && credentials.clientNonce == nil)
        let ha1 = MD5.hexDigest("u:IP Camera:p"), ha2 = MD5.hexDigest("DESCRIBE:rtsp://cam/stream")
        #expect(credentials.response == MD5.hexDigest("\(ha1):abc123:\(ha2)"))
        var basicOnly = RTSPClientAuthenticator(user: "u", password: "p")
        let accepted4 = basicOnly.accept(challenges: [#"Basic realm="x""#])
        #expect(accepted4)
        let basicAnswer = basicOnly.authorization(method: .play, uri: "x")
        #expect(basicAnswer == "Basic dTpw")
        var none = RTSPClientAuthenticator(user: "u", password: "p")
        let accepted5 = none.accept(challenges: [#"Digest realm="x", nonce="n", algorithm=SHA-256"#])
        #expect(!accepted5)
    }
}

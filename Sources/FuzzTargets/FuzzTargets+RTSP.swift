import RTSPMessages

extension FuzzTargets {
    /// The RTSP layer: the stream parser (whole, and cut where the input says) with every request written back and
    /// parsed again; the Transport, Session, Range, RTP-Info and Digest header parsers on the input as text (what
    /// parses is written and parsed back to the same value); the server's check of it as an `Authorization`
    /// header; MD5 in one go and in pieces; Base64 both ways.
    static func rtsp(_ bytes: [UInt8]) {
        let whole = rtspItems(bytes, cuts: [])
        let cuts = bytes.prefix(4).map { Int($0) * max(1, bytes.count / 256) }
        let chunked = rtspItems(bytes, cuts: cuts)
        if whole.failed == false, chunked.failed == false {
            precondition(whole.kinds == chunked.kinds, "RTSP: chunking changed the items")
        }

        let text = String(decoding: bytes.prefix(8192), as: UTF8.self)
        if let list = try? RTSPTransportHeader.parseList(text) {
            // What parses is written back and parsed to the same value — when the written form still fits the
            // parser's length cap (`;unicast` and the like are added on the way out).
            for spec in list where spec.headerValue.utf8.count <= RTSPTransportHeader.maximumLength {
                let again = try? RTSPTransportHeader(parsing: spec.headerValue)
                precondition(again == spec, "RTSP: Transport header does not round-trip")
            }
        }
        if let session = try? RTSPSessionHeader(parsing: text), session.headerValue.utf8.count <= 4096 {
            precondition((try? RTSPSessionHeader(parsing: session.headerValue)) == session, "RTSP: Session header does not round-trip")
        }
        _ = try? RTSPRange(parsing: text)
        if let info = try? RTPInfoHeader(parsing: text) { _ = info.headerValue }
        if let challenge = try? DigestChallenge(parsing: text), challenge.headerValue.utf8.count <= 4096 {
            precondition((try? DigestChallenge(parsing: challenge.headerValue)) == challenge, "RTSP: Digest challenge does not round-trip")
        }
        if let credentials = try? DigestCredentials(parsing: text), credentials.headerValue.utf8.count <= 4096 {
            precondition((try? DigestCredentials(parsing: credentials.headerValue)) == credentials, "RTSP: Digest credentials do not round-trip")
        }
        let server = RTSPServerAuthenticator(user: "u", password: "p", allowsBasic: true)
        _ = server.verify(text, method: .describe)
        var client = RTSPClientAuthenticator(user: "u", password: "p")
        if client.accept(challenges: [text]) { _ = client.authorization(method: .describe, uri: "rtsp://h/x") }

        var pieces = MD5()
        let split = bytes.count / 3
        pieces.update(bytes[..<split])
        pieces.update(bytes[split...])
        precondition(pieces.finalize() == MD5.digest(bytes), "MD5: pieces and one go differ")
        precondition(Base64.decode(Base64.encode(bytes)) == bytes, "Base64: does not round-trip")
        _ = Base64.decode(text)
    }

    /// Parses `bytes` appended in pieces cut at `cuts`; returns the kinds of the items and whether it ended in an error.
    private static func rtspItems(_ bytes: [UInt8], cuts: [Int]) -> (kinds: [Int], failed: Bool) {
        var parser = RTSPStreamParser(limits: RTSPMessageLimits(maximumStartLineLength: 512, maximumHeaderCount: 16,
                                                                maximumHeaderSectionLength: 2048, maximumBodyLength: 4096))
        var kinds: [Int] = []
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start && cut <= bytes.count {
            parser.append(Array(bytes[start..<cut]))
            start = cut
            do {
                while let item = try parser.next() {
                    switch item {
                    case let .request(request):
                        kinds.append(0)
                        var again = RTSPStreamParser()
                        again.append(request.serialized())
                        guard case let .request(reparsed)? = try? again.next() else {
                            preconditionFailure("RTSP: a parsed request does not parse again")
                        }
                        precondition(reparsed.method == request.method && reparsed.uri == request.uri && reparsed.body == request.body,
                                     "RTSP: request does not round-trip")
                    case let .response(response):
                        kinds.append(1)
                        precondition(response.status.code >= 100 && response.status.code <= 999, "RTSP: status code out of range")
                    case let .interleaved(frame):
                        kinds.append(2 + Int(frame.channel) * 0x10000 + frame.payload.count)
                    }
                }
            } catch {
                return (kinds, true)
            }
        }
        return (kinds, false)
    }
}

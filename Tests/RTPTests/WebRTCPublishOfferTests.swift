import RTP
import Testing

/// The WHIP client's offer (``WebRTCPublishOffer``) and its reading of the answer (``WebRTCPublishAnswer``), against
/// the answerer this package's servers use (``WebRTCOffer/answer(_:)``) and hand-made answers that break each rule.
@Suite("WebRTCPublishOffer and WebRTCPublishAnswer")
struct WebRTCPublishOfferTests {
    static func offer() -> WebRTCPublishOffer {
        var offer = WebRTCPublishOffer(iceUserFragment: "ufrg", icePassword: "p4ssw0rd-p4ssw0rd-p4ssw0rd", fingerprint: "sha-256 AB:CD",
                                       candidates: [WebRTCCandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 50000)])
        offer.videoSSRC = 1111
        offer.videoRetransmissionSSRC = 2222
        offer.audioSSRC = 3333
        return offer
    }

    static func serverOptions(_ profiles: [WebRTCAnswerOptions.H264Profile] = [.constrainedBaseline, .high]) -> WebRTCAnswerOptions {
        WebRTCAnswerOptions(iceUserFragment: "srvU", icePassword: "server-password-12345678", fingerprint: "sha-256 01:02",
                            candidates: [WebRTCCandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 60000)],
                            sends: false, receives: true, h264Profiles: profiles)
    }

    @Test("the offer reads back as JSEP: BUNDLE, sendonly, actpass, rtcp-mux, H.264 42e01f and High with rtx, Opus, SSRCs, the candidate")
    func offerShape() throws {
        let text = Self.offer().description.text
        let parsed = try WebRTCOffer(parsing: text)
        #expect(parsed.bundle == ["0", "1"])
        #expect(parsed.media.map(\.kind) == ["video", "audio"])
        let video = parsed.media[0]
        #expect(video.direction == "sendonly")
        #expect(video.setup == "actpass")
        #expect(video.rtcpMux)
        #expect(video.codecs.map(\.payloadType) == [96, 97, 98, 99])
        #expect(video.codecs[0].h264?.profileLevelID?.text == "42e01f")
        #expect(video.codecs[0].h264?.packetizationMode == 1)
        #expect(video.codecs[2].h264?.profileLevelID?.text == "640c1f")
        #expect(video.codecs[1].associatedPayloadType == 96)
        #expect(video.codecs[0].feedback.contains("nack pli"))
        #expect(video.candidates.first?.port == 50000)
        #expect(text.contains("a=ssrc-group:FID 1111 2222"))
        #expect(parsed.media[1].codecs.first?.rtpMap.attributeValue == "111 opus/48000/2")
        #expect(text.contains("a=ssrc:3333 cname:streamkit"))
    }

    @Test("an ICE-lite server's answer: 42e01f with its rtx, Opus, passive, the server's credentials and candidate")
    func readsServerAnswer() throws {
        let offer = Self.offer()
        let answer = try WebRTCOffer(parsing: offer.description.text).answer(Self.serverOptions())
        let read = try WebRTCPublishAnswer(parsing: answer.text, offer: offer)
        #expect(read.track("video")?.payloadType == 96)
        #expect(read.track("video")?.retransmissionPayloadType == 97)
        #expect(read.track("video")?.profileIndex == 0)
        #expect(read.track("audio")?.payloadType == 111)
        #expect(read.setup == "passive")
        #expect(read.isICELite)
        #expect(read.iceUserFragment == "srvU")
        #expect(read.icePassword == "server-password-12345678")
        #expect(read.candidates.map(\.port) == [60000])
    }

    @Test("a server that takes High only answers with payload type 98 (profile 1)")
    func readsHigh() throws {
        let offer = Self.offer()
        let answer = try WebRTCOffer(parsing: offer.description.text).answer(Self.serverOptions([.high]))
        let read = try WebRTCPublishAnswer(parsing: answer.text, offer: offer)
        #expect(read.track("video")?.payloadType == 98)
        #expect(read.track("video")?.retransmissionPayloadType == 99)
        #expect(read.track("video")?.profileIndex == 1)
    }

    static func validAnswer() throws -> String {
        let offer = Self.offer()
        return try WebRTCOffer(parsing: offer.description.text).answer(Self.serverOptions()).text
    }

    @Test("answers that break a rule are refused, naming what is wrong",
          arguments: [
              ("a=setup:passive", "a=setup:actpass", "setup"),
              ("H264/90000", "VP8/90000", "offered payload types"),
              ("a=ice-pwd:server-password-12345678\r\n", "", "ice-pwd"),
          ])
    func refuses(replacing: String, with: String, named: String) throws {
        var text = try Self.validAnswer()
        if replacing == "H264/90000" {
            // The answer names a payload type we never offered.
            text = text.replacingAll("m=video 60000 UDP/TLS/RTP/SAVPF 96 97", with: "m=video 60000 UDP/TLS/RTP/SAVPF 100")
        } else {
            text = text.replacingAll(replacing, with: with)
        }
        #expect(throws: SDPError.self) { try WebRTCPublishAnswer(parsing: text, offer: Self.offer()) }
        do {
            _ = try WebRTCPublishAnswer(parsing: text, offer: Self.offer())
        } catch {
            #expect("\(error)".contains(named), "\(error)")
        }
    }

    @Test("an answer that rejects every section (port 0) accepts nothing")
    func rejectsAll() throws {
        let text = try Self.validAnswer().replacingAll("m=video 60000", with: "m=video 0").replacingAll("m=audio 60000", with: "m=audio 0")
        #expect(throws: SDPError.self) { try WebRTCPublishAnswer(parsing: text, offer: Self.offer()) }
    }
}

extension String {
    /// Every occurrence of `target` replaced (Foundation-free).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

import Foundation
import RTP
import Testing

/// The offers `scripts/webrtc-offer-fixtures.sh` saved from Chromium.
private func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).sdp")
    return try String(contentsOf: url, encoding: .utf8)
}

/// Chromium's recvonly offer with more H.264 payload types added to its video section, as a Chromium built with its
/// proprietary codecs (64001f) and Safari (640c1f) write them: each with its rtx, the feedback Chromium gives every
/// H.264 type.
private func offer(adding types: [(payloadType: Int, profileLevelID: String)]) throws -> WebRTCOffer {
    var lines = try fixture("chromium-recvonly").replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let video = try #require(lines.firstIndex { $0.hasPrefix("m=video") })
    lines[video] += types.map { " \($0.payloadType) \($0.payloadType + 1)" }.joined()
    let anchor = try #require(lines.firstIndex { $0.hasPrefix("a=fmtp:109 apt=108") })
    var added: [String] = []
    for (type, id) in types {
        added += ["a=rtpmap:\(type) H264/90000", "a=rtcp-fb:\(type) goog-remb", "a=rtcp-fb:\(type) transport-cc", "a=rtcp-fb:\(type) ccm fir",
                  "a=rtcp-fb:\(type) nack", "a=rtcp-fb:\(type) nack pli",
                  "a=fmtp:\(type) level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=\(id)",
                  "a=rtpmap:\(type + 1) rtx/90000", "a=fmtp:\(type + 1) apt=\(type)"]
    }
    lines.insert(contentsOf: added, at: anchor + 1)
    return try WebRTCOffer(parsing: lines.joined(separator: "\r\n"))
}

private func options(sending sent: String?) throws -> WebRTCAnswerOptions {
    var options = WebRTCAnswerOptions(iceUserFragment: "skuf", icePassword: "0123456789abcdefghijklmn",
                                      fingerprint: "sha-256 " + (0..<32).map { _ in "AB" }.joined(separator: ":"),
                                      candidates: [WebRTCCandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 50_000)],
                                      sends: true, receives: false, sendingSSRCs: ["video": 1])
    options.sentH264 = try sent.map(id)
    return options
}

private func id(_ text: String) throws -> SDPH264Parameters.ProfileLevelID {
    let value = try #require(UInt32(text, radix: 16))
    return SDPH264Parameters.ProfileLevelID(profileIDC: UInt8(value >> 16 & 0xFF), constraints: UInt8(value >> 8 & 0xFF), levelIDC: UInt8(value & 0xFF))
}

/// The answer's H.264 payload type and its profile-level-id (`112 64001f`), for an offer and what we send.
private func chosen(_ offer: WebRTCOffer, sending sent: String?) throws -> String {
    let choice = try #require(offer.choices(try options(sending: sent)).first { $0.kind == "video" })
    return "\(choice.codec.payloadType) \(choice.codec.h264?.profileLevelID?.text ?? "")"
}

/// H.264 `profile-level-id` negotiation (RFC 6184 §8.1, §8.2.2): what a WHEP answer takes when our stream is High, Main
/// or Constrained Baseline, against Chromium's real offer and the High payload types other browsers add.
@Suite("H.264 profile-level-id: the answer carries the stream's profile")
struct H264ProfileNegotiationTests {
    @Test("profile-level-id → profile, as RFC 6184 Table 5 and H.264 A.2 read the constraint flags",
          arguments: [("42e01f", "Constrained Baseline"), ("42c01e", "Constrained Baseline"), ("42001f", "Baseline"), ("4d001f", "Main"),
                      ("4d801f", "Constrained Baseline"), ("58c01f", "Constrained Baseline"), ("58801f", "Baseline"), ("58001f", "Extended"),
                      ("64001f", "High"), ("640c1f", "Constrained High"), ("64081f", "Progressive High"), ("640028", "High"), ("f4001f", "profile_idc 244")])
    func profiles(text: String, name: String) throws {
        #expect(try id(text).profile.description == name)
    }

    @Test("Levels order with 1b between 1 and 1.1 (H.264 A.3.1)")
    func levels() throws {
        #expect(try id("42f00b").orderedLevel > id("42e00a").orderedLevel)
        #expect(try id("42f00b").orderedLevel < id("42e00b").orderedLevel)
        #expect(try id("640009").orderedLevel == id("42f00b").orderedLevel)
        #expect(try id("640028").orderedLevel > id("64001f").orderedLevel)
    }

    @Test("Chromium's real offer (42001f, 42e01f, 4d001f, f4001f; no 64xxxx): a Constrained Baseline stream takes 42e01f, Main 4d001f, High the High 4:4:4 Predictive type whose decoders take High — never 42e01f for High")
    func chromiumOffer() throws {
        let offer = try WebRTCOffer(parsing: try fixture("chromium-recvonly"))
        let baseline = try chosen(offer, sending: "42c01e")
        let main = try chosen(offer, sending: "4d401f")
        let high = try chosen(offer, sending: "640028")
        let unknown = try chosen(offer, sending: nil)
        print("Chromium offer: CB → \(baseline), Main → \(main), High → \(high), not known → \(unknown)")
        #expect(baseline == "108 42e01f")
        #expect(main == "116 4d001f")
        #expect(high == "41 f4001f")
        #expect(unknown == "108 42e01f", "without the stream's profile, the preference list decides as before")
    }

    @Test("Chromium with 64001f and Safari's 640c1f added: High goes out as 64001f, Constrained High as 640c1f, Constrained Baseline still as 42e01f; a Main stream as 4d001f")
    func highOffered() throws {
        let offer = try offer(adding: [(123, "640c1f"), (112, "64001f")])
        #expect(try chosen(offer, sending: "640028") == "112 64001f", "High 4.0 into the only High type: the level is asymmetric")
        #expect(try chosen(offer, sending: "64001e") == "112 64001f")
        #expect(try chosen(offer, sending: "640c1f") == "123 640c1f")
        #expect(try chosen(offer, sending: "42c01e") == "108 42e01f")
        #expect(try chosen(offer, sending: "4d0028") == "116 4d001f")
        let answer = try offer.answer(try options(sending: "640028")).text
        #expect(answer.contains("a=rtpmap:112 H264/90000\r\n") && answer.contains("a=fmtp:112 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f\r\n"))
        #expect(answer.contains("a=fmtp:113 apt=112\r\n"), "its rtx")
        #expect(!answer.contains("a=rtpmap:108 "))
    }

    @Test("Several High levels offered (64001f, 640028, 640032): the first whose level is at least the stream's, else the highest")
    func levelsOffered() throws {
        let offer = try offer(adding: [(112, "64001f"), (121, "640028"), (125, "640032")])
        #expect(try chosen(offer, sending: "64001e") == "112 64001f")
        #expect(try chosen(offer, sending: "640028") == "121 640028")
        #expect(try chosen(offer, sending: "64002a") == "125 640032")
        #expect(try chosen(offer, sending: "640033") == "125 640032", "above every level offered: the highest")
    }

    @Test("An offer with no profile that decodes the stream (High into 42e01f only, as aiortc offers) falls back to the preference list")
    func noCarrier() throws {
        let aiortc = try WebRTCOffer(parsing: try fixture("aiortc-recvonly"))
        let choice = try chosen(aiortc, sending: "640028")
        #expect(choice.hasSuffix("42e01f") || choice.hasSuffix("42001f"), "\(choice)")
    }
}

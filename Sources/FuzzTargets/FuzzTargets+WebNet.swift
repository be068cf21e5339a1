import HTTPMessages
import RTP
import STUN

extension FuzzTargets {
    /// HTTP/1.1: the request parser on the input whole and cut in pieces (the same requests either way), every
    /// request written and parsed back to the same method, target and body; the response parser (answering GET and
    /// HEAD) whole and after the stream ends.
    static func http(_ bytes: [UInt8]) {
        let limits = HTTPMessageLimits(maximumStartLineLength: 512, maximumHeaderCount: 16, maximumHeaderSectionLength: 2048,
                                       maximumBodyLength: 8192)
        func requests(_ cuts: [Int]) -> (found: [HTTPRequest], failed: Bool) {
            var parser = HTTPRequestParser(limits: limits)
            var found: [HTTPRequest] = []
            var start = 0
            for cut in cuts.sorted() + [bytes.count] where cut >= start && cut <= bytes.count {
                parser.append(Array(bytes[start..<cut]))
                start = cut
                do {
                    while let request = try parser.next() { found.append(request) }
                } catch {
                    return (found, true)
                }
            }
            return (found, false)
        }
        let whole = requests([])
        let pieces = requests(bytes.prefix(4).map { Int($0) * max(1, bytes.count / 256) })
        if !whole.failed, !pieces.failed {
            precondition(whole.found == pieces.found, "HTTP: cutting the stream changed the requests")
        }
        for request in whole.found {
            var again = HTTPRequestParser()
            again.append(request.serialized())
            guard let reparsed = try? again.next() else { preconditionFailure("HTTP: a parsed request does not parse again") }
            precondition(reparsed.method == request.method && reparsed.target == request.target && reparsed.body == request.body,
                         "HTTP: a request does not round-trip")
        }
        for method in [HTTPMethod.get, .head] {
            var parser = HTTPResponseParser(limits: limits)
            parser.append(bytes)
            while let response = try? parser.next(answering: method) {
                precondition((100...999).contains(response.status.code), "HTTP: status out of range")
                if method == .head { precondition(response.body.isEmpty, "HTTP: a HEAD response with a body") }
            }
            parser.finish()
            _ = try? parser.next(answering: method)
        }
    }

    /// STUN: the input as a datagram — parsed; integrity and fingerprint checked; every accessor read; a message that
    /// parses is written again with integrity and fingerprint and must parse, verify and keep its attributes; the
    /// RFC 7983 classification is total.
    static func stun(_ bytes: [UInt8]) {
        _ = MultiplexedPacketKind(classifying: bytes)
        _ = STUNMessage.isSTUN(bytes)
        guard let message = try? STUNMessage(parsing: bytes) else { return }
        let key = Array("fuzz-password-0123456789".utf8)
        _ = message.hasValidIntegrity(key: key)
        _ = message.hasValidFingerprint
        _ = (message.username, message.software, message.xorMappedAddress, message.mappedAddress, message.errorCode,
             message.unknownAttributes, message.priority, message.iceControlled, message.iceControlling, message.hasUseCandidate,
             message.unknownComprehensionRequiredTypes)
        let written = message.serialized(integrityKey: key, addingFingerprint: true)
        guard let again = try? STUNMessage(parsing: written) else { preconditionFailure("STUN: a written message does not parse") }
        precondition(again.hasValidIntegrity(key: key) && again.hasValidFingerprint == true, "STUN: our integrity or fingerprint does not verify")
        let kept = message.attributes.filter { $0.type != STUNAttribute.messageIntegrityType && $0.type != STUNAttribute.fingerprintType }
        precondition(Array(again.attributes.prefix(kept.count)) == kept, "STUN: attributes changed on the way through")
    }

    /// WebRTC offers: the input as SDP read as a JSEP offer; the ICE-lite answer built from it (sending and
    /// receiving) must parse again, as an offer, with the same mids and the chosen codecs.
    static func webrtcOffer(_ bytes: [UInt8]) {
        guard let offer = try? WebRTCOffer(_: SessionDescription(parsing: bytes)) else { return }
        let options = WebRTCAnswerOptions(iceUserFragment: "fuzz", icePassword: "0123456789abcdefghijklmn", fingerprint: "sha-256 00:11",
                                          candidates: [WebRTCCandidate(foundation: "1", priority: 1, address: "127.0.0.1", port: 9)],
                                          sends: bytes.count % 2 == 0, receives: true, sendingSSRCs: ["video": 1, "audio": 2])
        // The stream's profile-level-id from the input's first bytes: a chosen H.264 payload type carries it, or
        // comes from the preference list when no offered profile decodes it (RFC 6184 §8.2.2).
        if bytes.count >= 3 {
            var sending = options
            let sent = SDPH264Parameters.ProfileLevelID(profileIDC: bytes[0], constraints: bytes[1], levelIDC: bytes[2])
            sending.sentH264 = sent
            for choice in offer.choices(sending) where choice.kind == "video" {
                guard let id = choice.codec.h264?.profileLevelID else { continue }
                let carriers = offer.media[choice.index].codecs.compactMap { $0.h264?.packetizationMode == 1 ? $0.h264?.profileLevelID : nil }
                if carriers.contains(where: { $0.profile.decodes(sent.profile) }) {
                    precondition(id.profile.decodes(sent.profile), "WebRTC: a payload type that cannot carry the stream's profile was chosen")
                }
            }
            _ = try? offer.answer(sending)
        }
        guard let answer = try? offer.answer(options) else { return }
        guard let reread = try? WebRTCOffer(parsing: answer.text) else { preconditionFailure("WebRTC: our answer does not parse") }
        precondition(reread.media.map(\.mid) == offer.media.map(\.mid), "WebRTC: the answer's mids differ from the offer's")
        for choice in offer.choices(options) {
            precondition(reread.media[choice.index].codecs.first?.payloadType == choice.codec.payloadType, "WebRTC: the answer lost its codec")
        }
    }
}

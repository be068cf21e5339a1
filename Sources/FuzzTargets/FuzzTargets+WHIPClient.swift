import POSIX
import RTP
import STUN
import Transport

extension FuzzTargets {
    static let fuzzLocal = ICECredentials(userFragment: "ourU", password: "our-password-0123456789")
    static let fuzzRemote = ICECredentials(userFragment: "thrU", password: "their-password-012345678")

    /// The full ICE agent's check list: the input as a raw datagram from the peer's candidate and from a stranger,
    /// then cut into records (`class, transaction-ID choice, length, attribute TLVs`) that become STUN requests
    /// (integrity with our password) and responses (with the peer's, to one of our outstanding transactions or not),
    /// with timer ticks between them. Everything sent must be STUN that parses with a valid FINGERPRINT; datagrams are
    /// delivered only from addresses that passed a check; the pairs stay within their bound.
    static func iceAgent(_ bytes: [UInt8]) {
        let peer = SocketAddress.loopback(.ipv4, port: 50000)
        let stranger = SocketAddress.loopback(.ipv4, port: UInt16(bytes.first ?? 1) &+ 1000)
        var list = ICECheckList(local: fuzzLocal, remote: fuzzRemote, localAddress: .loopback(.ipv4, port: 40000),
                                remoteCandidates: [(peer.host, peer.port, 2_130_706_431), ("::1", 9, 5), ("x.local", 9, 1)])
        var now = ContinuousClock.now
        var outstanding: [[UInt8]] = []
        func check(_ outputs: [ICECheckList.Output]) {
            for output in outputs {
                switch output {
                case let .send(datagram, _):
                    guard let message = try? STUNMessage(parsing: datagram), message.hasValidFingerprint == true else {
                        preconditionFailure("ICE: we sent a datagram that is not STUN with a FINGERPRINT")
                    }
                    if message.type == .bindingRequest {
                        precondition(message.hasValidIntegrity(key: Array(fuzzRemote.password.utf8)), "ICE: our check's integrity")
                        outstanding.append(message.transactionID)
                        if outstanding.count > 16 { outstanding.removeFirst() }
                    } else {
                        precondition(message.hasValidIntegrity(key: Array(fuzzLocal.password.utf8)) || message.type == .bindingError,
                                     "ICE: our success response's integrity")
                    }
                case let .deliver(_, _, sender):
                    precondition(list.answered.contains(sender) || list.pairs.contains { $0.remote == sender && $0.state == .succeeded },
                                 "ICE: a datagram delivered from an unchecked address")
                case .event:
                    continue
                }
            }
            precondition(list.pairs.count <= ICECheckList.maximumPairCount, "ICE: too many pairs")
        }
        check(list.start(now: now))
        check(list.receive(bytes, from: peer, now: now))
        check(list.receive(bytes, from: stranger, now: now))
        var offset = 0
        while offset + 3 <= bytes.count {
            let control = bytes[offset], choice = bytes[offset + 1], length = Int(bytes[offset + 2])
            offset += 3
            let body = Array(bytes[offset..<min(bytes.count, offset + length)])
            offset += body.count
            var attributes: [STUNAttribute] = []
            var index = 0
            while index + 3 <= body.count, attributes.count < 8 {
                let type = UInt16(body[index]) << 8 | UInt16(body[index + 1])
                let count = min(Int(body[index + 2]), body.count - index - 3)
                attributes.append(STUNAttribute(type: type, value: Array(body[(index + 3)..<(index + 3 + count)])))
                index += 3 + count
            }
            let isRequest = control & 1 == 0
            if isRequest, control & 2 == 0 { attributes.insert(.username("ourU:thrU"), at: 0) }
            var transaction = (0..<12).map { UInt8(truncatingIfNeeded: Int(choice) &* 31 &+ $0) }
            if !isRequest, !outstanding.isEmpty, choice & 0x80 == 0 { transaction = outstanding[Int(choice) % outstanding.count] }
            let type: STUNMessageType = isRequest ? .bindingRequest : (control & 2 == 0 ? .bindingSuccess : .bindingError)
            if type == .bindingSuccess, control & 4 == 0 {
                attributes.append(.xorMappedAddress(STUNAddress(address: [127, 0, 0, 1], port: 40000), transactionID: transaction))
            }
            let key = isRequest ? fuzzLocal.password : fuzzRemote.password
            let datagram = STUNMessage(type: type, transactionID: transaction, attributes: attributes)
                .serialized(integrityKey: control & 8 == 0 ? Array(key.utf8) : nil, addingFingerprint: control & 16 == 0)
            let from = control & 32 == 0 ? peer : SocketAddress.loopback(.ipv4, port: 50000 &+ UInt16(choice))
            check(list.receive(datagram, from: from, now: now))
            check(list.receive([20, 0xFE, 0xFD] + body, from: from, now: now))
            now += .milliseconds(Int(control >> 6) * 400 + 10)
            check(list.tick(now: now))
        }
    }

    /// A WHIP answer: the input as SDP read against a fixed offer; what is read names only offered payload types, at
    /// most ``WebRTCPublishAnswer/maximumCandidateCount`` candidates and a DTLS role, and a check list made from its
    /// candidates stays within its bound.
    static func whipAnswer(_ bytes: [UInt8]) {
        var offer = WebRTCPublishOffer(iceUserFragment: "ourU", icePassword: "our-password-0123456789", fingerprint: "sha-256 00:11",
                                       candidates: [WebRTCCandidate(foundation: "1", priority: 1, address: "127.0.0.1", port: 9)])
        offer.offersAudio = bytes.count % 2 == 0
        guard let answer = try? WebRTCPublishAnswer(parsing: String(decoding: bytes, as: UTF8.self), offer: offer) else { return }
        let offered = Set(offer.offeredCodecs.map(\.payloadType))
        for track in answer.tracks { precondition(offered.contains(track.payloadType), "WHIP answer: a payload type we did not offer") }
        precondition(answer.candidates.count <= WebRTCPublishAnswer.maximumCandidateCount, "WHIP answer: too many candidates")
        precondition(answer.setup == "active" || answer.setup == "passive", "WHIP answer: a DTLS role that is neither")
        var list = ICECheckList(local: fuzzLocal, remote: ICECredentials(userFragment: answer.iceUserFragment, password: answer.icePassword),
                                localAddress: .loopback(.ipv4, port: 40000),
                                remoteCandidates: answer.candidates.map { ($0.address, $0.port, $0.priority) })
        _ = list.start(now: .now)
        precondition(list.pairs.count <= ICECheckList.maximumPairCount, "WHIP answer: too many pairs")
    }
}

import POSIX
import Testing
import Transport

/// The full ICE agent's core, two agents wired back to back in memory (no sockets, a simulated clock): checks,
/// answers, regular nomination, role conflicts, credentials, retransmission and consent.
@Suite("ICECheckList: a controlling and a controlled agent in memory")
struct ICECheckListTests {
    static let ours = SocketAddress.loopback(.ipv4, port: 40000)
    static let theirs = SocketAddress.loopback(.ipv4, port: 50000)
    static let ourCredentials = ICECredentials(userFragment: "ourU", password: "our-password-0123456789")
    static let theirCredentials = ICECredentials(userFragment: "thrU", password: "their-password-012345678")

    /// Runs both agents until neither has anything to send or `limit` simulated milliseconds pass, delivering every
    /// datagram (except those `lose` drops); returns each side's events.
    static func run(_ a: inout ICECheckList, _ b: inout ICECheckList, milliseconds limit: Int = 3000,
                    lose: (_ count: Int, _ elapsedMilliseconds: Int) -> Bool = { _, _ in false }) -> (a: [ICEFullAgentEvent], b: [ICEFullAgentEvent]) {
        var now = ContinuousClock.now
        var inFlight: [(to: SocketAddress, from: SocketAddress, bytes: [UInt8])] = []
        var events: (a: [ICEFullAgentEvent], b: [ICEFullAgentEvent]) = ([], [])
        var sent = 0
        var elapsed = 0
        func route(_ outputs: [ICECheckList.Output], from: SocketAddress, isA: Bool) {
            for output in outputs {
                switch output {
                case let .send(bytes, to):
                    sent += 1
                    if !lose(sent, elapsed) { inFlight.append((to, from, bytes)) }
                case let .event(event):
                    if isA { events.a.append(event) } else { events.b.append(event) }
                case .deliver: break
                }
            }
        }
        route(a.start(now: now), from: ours, isA: true)
        route(b.start(now: now), from: theirs, isA: false)
        for _ in 0..<(limit / 10) {
            while !inFlight.isEmpty {
                let datagram = inFlight.removeFirst()
                if datagram.to == ours {
                    route(a.receive(datagram.bytes, from: datagram.from, now: now), from: ours, isA: true)
                } else if datagram.to == theirs {
                    route(b.receive(datagram.bytes, from: datagram.from, now: now), from: theirs, isA: false)
                }
            }
            now += .milliseconds(10)
            elapsed += 10
            route(a.tick(now: now), from: ours, isA: true)
            route(b.tick(now: now), from: theirs, isA: false)
        }
        return events
    }

    static func pair(controlling: Bool = true, otherControlling: Bool = false, theirKey: ICECredentials = theirCredentials,
                     tieBreakers: (UInt64, UInt64) = (2, 1)) -> (ICECheckList, ICECheckList) {
        let a = ICECheckList(local: ourCredentials, remote: theirKey, localAddress: ours,
                             remoteCandidates: [(theirs.host, theirs.port, 2_130_706_431)], isControlling: controlling, tieBreaker: tieBreakers.0)
        let b = ICECheckList(local: theirCredentials, remote: ourCredentials, localAddress: theirs,
                             remoteCandidates: [(ours.host, ours.port, 2_130_706_431)], isControlling: otherControlling, tieBreaker: tieBreakers.1)
        return (a, b)
    }

    @Test("the controlling agent checks, nominates with USE-CANDIDATE, and both select the same pair")
    func nominates() {
        var (a, b) = Self.pair()
        let events = Self.run(&a, &b)
        #expect(events.a.contains(.selected(Self.theirs)), "\(events.a)")
        #expect(events.b.contains(.selected(Self.ours)), "\(events.b)")
        #expect(a.selected == Self.theirs)
        #expect(b.selected == Self.ours)
        #expect(a.statistics.checksAnswered >= 1, "the controlled agent's triggered check was answered")
        #expect(a.pairs.first?.isNominated == true)
    }

    @Test("DTLS and RTP are delivered only from an address that passed a check")
    func delivers() {
        var (a, b) = Self.pair()
        _ = Self.run(&a, &b)
        let dtls: [UInt8] = [22, 0xFE, 0xFD] + [UInt8](repeating: 0, count: 20)
        #expect(a.receive(dtls, from: Self.theirs, now: .now) == [.deliver(.dtls, dtls, from: Self.theirs)])
        #expect(a.receive(dtls, from: SocketAddress.loopback(.ipv4, port: 1), now: .now).isEmpty)
        #expect(a.statistics.unverifiedDatagrams == 1)
    }

    @Test("both controlling: the smaller tie-breaker gives way (487, role change), and a pair is still selected")
    func roleConflict() {
        var (a, b) = Self.pair(controlling: true, otherControlling: true, tieBreakers: (1, 9))
        let events = Self.run(&a, &b)
        #expect(events.a.contains(.roleChanged(controlling: false)), "\(events.a)")
        #expect(!a.isControlling)
        #expect(b.isControlling)
        #expect(a.selected == Self.theirs, "\(events.a)")
        #expect(b.selected == Self.ours, "\(events.b)")
    }

    @Test("a wrong password: the peer answers 401 and nothing is selected")
    func wrongPassword() {
        var (a, b) = Self.pair(theirKey: ICECredentials(userFragment: "thrU", password: "not-the-password-xxxxxx"))
        let events = Self.run(&a, &b, milliseconds: 2000)
        #expect(a.selected == nil)
        #expect(events.b.contains { if case .requestRefused(_, 401) = $0 { true } else { false } }, "\(events.b)")
    }

    @Test("lost checks are retransmitted (RFC 8489 §6.2.1) until one gets through")
    func retransmits() {
        var (a, b) = Self.pair()
        // The first three datagrams (our first check and its first two retransmissions, or the peer's answers) vanish.
        let events = Self.run(&a, &b, milliseconds: 6000) { count, _ in count <= 3 }
        #expect(a.selected == Self.theirs, "\(events.a)")
        #expect(a.statistics.requestsSent >= 3, "\(a.statistics)")
    }

    @Test("consent: answered checks keep a selected pair (12 s, timeout 8 s); unanswered ones let it expire (RFC 7675 §5.1)")
    func consent() {
        var (a, b) = Self.pair()
        a.consentTimeout = .seconds(8)
        let kept = Self.run(&a, &b, milliseconds: 12000)
        #expect(!kept.a.contains(.consentExpired), "\(kept.a)")
        #expect(a.statistics.responsesAccepted >= 3, "consent checks were answered: \(a.statistics)")
        var (c, d) = Self.pair()
        c.consentTimeout = .seconds(8)
        // Selection takes a few simulated milliseconds; after the first second every datagram is lost.
        let lost = Self.run(&c, &d, milliseconds: 12000) { _, elapsed in elapsed > 1000 }
        #expect(c.selected == Self.theirs)
        #expect(lost.a.contains(.consentExpired), "\(lost.a)")
    }

    @Test("every pair failing ends in .failed")
    func fails() {
        var a = ICECheckList(local: Self.ourCredentials, remote: Self.theirCredentials, localAddress: Self.ours,
                             remoteCandidates: [("127.0.0.1", 9, 100)])
        var now = ContinuousClock.now
        var events: [ICEFullAgentEvent] = []
        for output in a.start(now: now) { if case let .event(event) = output { events.append(event) } }
        for _ in 0..<6000 {
            now += .milliseconds(10)
            for output in a.tick(now: now) { if case let .event(event) = output { events.append(event) } }
        }
        #expect(events == [.failed])
        #expect(a.statistics.requestsSent == 7, "Rc = 7 transmissions: \(a.statistics)")
    }

    @Test("garbage, truncated STUN and a bad FINGERPRINT are dropped and counted")
    func garbage() {
        var (a, _) = Self.pair()
        #expect(a.receive([0, 1, 0, 0], from: Self.theirs, now: .now).isEmpty)
        var check = STUNMessage(type: .bindingRequest, transactionID: [UInt8](repeating: 7, count: 12),
                                attributes: [.username("ourU:thrU")]).serialized(integrityKey: Array("our-password-0123456789".utf8),
                                                                                   addingFingerprint: true)
        check[check.count - 1] ^= 0xFF
        #expect(a.receive(check, from: Self.theirs, now: .now).isEmpty)
        #expect(a.statistics.malformedSTUN == 2)
    }
}

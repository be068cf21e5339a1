import POSIX

/// The sans-I/O core of a full ICE agent (RFC 8445) for one component (BUNDLE with rtcp-mux) over UDP from one host
/// candidate: the check list, our connectivity checks and their retransmissions, the answers to the peer's checks,
/// nomination and consent freshness. It owns no socket and no clock: ``start(now:)``, ``receive(_:from:now:)`` and
/// ``tick(now:)`` return what to send, what happened and which datagrams to hand on; ``ICEFullAgent`` runs it on a
/// UDP port. Tests and the fuzzer drive it directly.
///
/// - **Checks** (§7.2.4, §7.2.2): one new check per ``pacing`` (Ta, §14.2), triggered checks first (§7.2.2), then the
///   highest-priority waiting pair; each a Binding request with USERNAME `peer:ours`, PRIORITY (the peer-reflexive
///   priority of our host candidate, §7.1.1), ICE-CONTROLLING or ICE-CONTROLLED with our tie-breaker (§7.1.3),
///   MESSAGE-INTEGRITY with the peer's password and FINGERPRINT (RFC 8489 §14.5, §14.7). Retransmitted per
///   RFC 8489 §6.2.1 with the ICE RTO of §14.3 (at least 500 ms, doubling, at most ``maximumTransmissions``, then
///   `Rm` × RTO of silence before the pair fails).
/// - **Responses** (§7.2.5): matched by transaction ID; the integrity must verify with the peer's password and the
///   response must come from where the request went (§7.2.5.2.1), else it is dropped; a success makes the pair valid;
///   487 switches our role (§7.2.5.1) and checks the pair again; another error fails the pair.
/// - **Nomination** (§8.1.1, regular, as Chromium does): while controlling, once a pair is valid the best valid
///   pair is checked again with USE-CANDIDATE; its success nominates and selects it.
/// - **The peer's checks** (§7.3): answered with XOR-MAPPED-ADDRESS, integrity with our password and FINGERPRINT;
///   400 without USERNAME or integrity, 401 for a wrong USERNAME or integrity, 420 for an unknown
///   comprehension-required attribute, 487 for a role conflict we win (§7.3.1.1); an unknown source becomes a
///   peer-reflexive remote candidate (§7.3.1.3) and every check from the peer triggers one of ours (§7.3.1.4);
///   USE-CANDIDATE from a controlling peer nominates (§7.3.1.5).
/// - **Consent** (RFC 7675 §5.1): on the selected pair a check every 4–6 s; when none has been answered for
///   ``consentTimeout``, ``ICEFullAgentEvent/consentExpired``.
///
/// DTLS and RTP/RTCP (RFC 7983) from an address that passed a check either way are delivered; from others dropped.
/// Every structure is bounded (``maximumPairCount``, ``maximumTransactionCount``).
public struct ICECheckList: Sendable {
    /// What the agent must do.
    public enum Output: Hashable, Sendable {
        /// Send these bytes to this address.
        case send([UInt8], to: SocketAddress)
        /// Something happened.
        case event(ICEFullAgentEvent)
        /// A DTLS or RTP/RTCP datagram from a checked address, for the session.
        case deliver(MultiplexedPacketKind, [UInt8], from: SocketAddress)
    }

    /// Counters.
    public struct Statistics: Hashable, Sendable {
        /// Binding requests we sent (retransmissions included).
        public var requestsSent = 0
        /// Success responses to our checks that verified.
        public var responsesAccepted = 0
        /// Responses dropped (unknown transaction, bad integrity or fingerprint, wrong source).
        public var responsesDropped = 0
        /// The peer's checks answered with a success.
        public var checksAnswered = 0
        /// The peer's checks refused.
        public var checksRefused = 0
        /// STUN datagrams that did not parse or whose FINGERPRINT was wrong.
        public var malformedSTUN = 0
        /// DTLS/RTP datagrams from addresses that passed no check.
        public var unverifiedDatagrams = 0
        /// Datagrams delivered.
        public var datagramsDelivered = 0
        /// Every count at zero.
        public init() {}
    }

    private struct Transaction: Sendable {
        var remote: SocketAddress
        var bytes: [UInt8]
        var nominating: Bool
        var isConsent: Bool
        var transmissions: Int
        var timeout: Duration
        var initialTimeout: Duration
        var deadline: ContinuousClock.Instant
    }

    /// Ta, the pacing of new checks (§14.2: 50 ms).
    public var pacing: Duration = .milliseconds(50)
    /// Rc, the most transmissions of one request (RFC 8489 §6.2.1: 7).
    public var maximumTransmissions = 7
    /// The consent timeout (RFC 7675 §5.1: 30 s).
    public var consentTimeout: Duration = .seconds(30)
    /// The most pairs (answer candidates and peer-reflexive ones).
    public static let maximumPairCount = 64
    /// The most outstanding transactions.
    public static let maximumTransactionCount = 128

    /// Our credentials (our answer's… our offer's `a=ice-ufrag`/`a=ice-pwd`).
    public let local: ICECredentials
    /// The peer's credentials.
    public let remote: ICECredentials
    /// Our host candidate's address.
    public let localAddress: SocketAddress
    /// Our host candidate's priority (RFC 8445 §5.1.2.1, type preference 126, local preference 65535, component 1).
    public let localPriority: UInt32 = 2_130_706_431
    /// The PRIORITY our checks carry: our candidate as peer-reflexive (type preference 110, §7.1.1).
    public let checkPriority: UInt32 = 1_862_270_975
    /// Our tie-breaker (§7.1.3).
    public let tieBreaker: UInt64
    /// Whether we are the controlling agent.
    public private(set) var isControlling: Bool
    /// The pairs, highest priority first.
    public private(set) var pairs: [ICECandidatePair] = []
    /// The selected pair's remote address.
    public private(set) var selected: SocketAddress?
    /// The counters.
    public private(set) var statistics = Statistics()

    private var transactions: [[UInt8]: Transaction] = [:]
    private var triggered: [SocketAddress] = []
    private var nextCheck: ContinuousClock.Instant?
    private var nominationInFlight = false
    private var hasFailed = false
    private var lastConsent: ContinuousClock.Instant?
    private var nextConsentCheck: ContinuousClock.Instant?
    private var consentExpired = false
    private var random = SystemRandomNumberGenerator()

    /// A check list.
    /// - Parameters:
    ///   - local: our credentials.
    ///   - remote: the peer's, from its SDP.
    ///   - localAddress: the address our socket is bound to (the host candidate).
    ///   - remoteCandidates: the peer's candidates (`address`, `port`, `priority`); those of another address family
    ///     than ours and those that are not IP addresses (mDNS names) are left out.
    ///   - isControlling: our role (a WHIP client, the offerer, controls: RFC 8445 §6.1.1).
    ///   - tieBreaker: the tie-breaker (random unless given).
    public init(local: ICECredentials, remote: ICECredentials, localAddress: SocketAddress,
                remoteCandidates: [(address: String, port: UInt16, priority: UInt32)], isControlling: Bool = true,
                tieBreaker: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.local = local
        self.remote = remote
        self.localAddress = localAddress
        self.isControlling = isControlling
        self.tieBreaker = tieBreaker
        for candidate in remoteCandidates {
            guard let address = try? SocketAddress(host: candidate.address, port: candidate.port), address.family == localAddress.family,
                  candidate.port != 0, !pairs.contains(where: { $0.remote == address }), pairs.count < Self.maximumPairCount else { continue }
            pairs.append(ICECandidatePair(remote: address, remotePriority: candidate.priority))
        }
        sortPairs()
    }

    /// Where media goes: the selected pair's remote address, or before nomination completes the best valid pair's
    /// (a DTLS flight the peer starts as soon as its own side is done is then answered at once).
    public var sendAddress: SocketAddress? { selected ?? pairs.first { $0.state == .succeeded }?.remote }

    /// Whether any pair is still waiting or being checked, or a pair is selected.
    public var isActive: Bool { selected != nil || pairs.contains { $0.state == .waiting || $0.state == .inProgress } }

    /// Starts: the first check goes out now.
    /// - Parameter now: the time.
    /// - Returns: what to send.
    public mutating func start(now: ContinuousClock.Instant) -> [Output] {
        nextCheck = now
        return tick(now: now)
    }

    // MARK: - Timers

    /// Runs the timers: the next paced check, retransmissions and their time-outs, consent checks and expiry.
    /// - Parameter now: the time.
    /// - Returns: what to send and what happened.
    public mutating func tick(now: ContinuousClock.Instant) -> [Output] {
        var outputs: [Output] = []
        // Retransmissions and time-outs (RFC 8489 §6.2.1).
        for (id, transaction) in transactions where transaction.deadline <= now {
            if transaction.transmissions < maximumTransmissions, !transaction.isConsent {
                var next = transaction
                next.transmissions += 1
                next.timeout = transaction.timeout * 2
                next.deadline = now + (next.transmissions == maximumTransmissions ? transaction.initialTimeout * 16 : next.timeout)
                transactions[id] = next
                statistics.requestsSent += 1
                outputs.append(.send(transaction.bytes, to: transaction.remote))
            } else {
                transactions[id] = nil
                if !transaction.isConsent { outputs += fail(transaction.remote, nominating: transaction.nominating) }
            }
        }
        outputs += pacedCheck(now: now)
        // Consent freshness (RFC 7675 §5.1).
        if let selected, !consentExpired {
            if let last = lastConsent, now - last > consentTimeout {
                consentExpired = true
                outputs.append(.event(.consentExpired))
            } else if let due = nextConsentCheck, due <= now, let index = pairs.firstIndex(where: { $0.remote == selected }) {
                outputs.append(check(index, nominating: false, now: now, consent: true))
                nextConsentCheck = now + .milliseconds(Int.random(in: 4000...6000, using: &random))
            }
        }
        if !hasFailed, selected == nil, !pairs.isEmpty, pairs.allSatisfy({ $0.state == .failed }), transactions.isEmpty {
            hasFailed = true
            outputs.append(.event(.failed))
        }
        return outputs
    }

    /// One new check per Ta (§6.1.4.2), triggered ones first.
    private mutating func pacedCheck(now: ContinuousClock.Instant) -> [Output] {
        guard let due = nextCheck, due <= now, selected == nil else { return [] }
        nextCheck = now + pacing
        guard let index = nextPairToCheck() else { return [] }
        return [check(index, nominating: false, now: now)]
    }

    private mutating func nextPairToCheck() -> Int? {
        while let address = triggered.first {
            triggered.removeFirst()
            if let index = pairs.firstIndex(where: { $0.remote == address }), pairs[index].state != .inProgress { return index }
        }
        return pairs.firstIndex { $0.state == .waiting }
    }

    /// The RTO of a new check (§14.3): max(500 ms, Ta × the pairs waiting or in progress).
    private var retransmissionTimeout: Duration {
        let active = pairs.filter { $0.state == .waiting || $0.state == .inProgress }.count
        return max(.milliseconds(500), pacing * active)
    }

    private mutating func check(_ index: Int, nominating: Bool, now: ContinuousClock.Instant, consent: Bool = false) -> Output {
        var id: [UInt8] = []
        for _ in 0..<12 { id.append(UInt8.random(in: 0...255, using: &random)) }
        var attributes: [STUNAttribute] = [.username("\(remote.userFragment):\(local.userFragment)"), .priority(checkPriority),
                                           isControlling ? .iceControlling(tieBreaker) : .iceControlled(tieBreaker)]
        if nominating { attributes.append(.useCandidate) }
        let bytes = STUNMessage(type: .bindingRequest, transactionID: id, attributes: attributes)
            .serialized(integrityKey: Array(remote.password.utf8), addingFingerprint: true)
        if transactions.count >= Self.maximumTransactionCount, let oldest = transactions.min(by: { $0.value.deadline < $1.value.deadline })?.key {
            transactions[oldest] = nil
        }
        let timeout = consent ? .milliseconds(500) : retransmissionTimeout
        transactions[id] = Transaction(remote: pairs[index].remote, bytes: bytes, nominating: nominating, isConsent: consent,
                                       transmissions: 1, timeout: timeout, initialTimeout: timeout, deadline: now + timeout)
        if !consent, pairs[index].state != .succeeded { pairs[index].state = .inProgress }
        statistics.requestsSent += 1
        return .send(bytes, to: pairs[index].remote)
    }

    private mutating func fail(_ address: SocketAddress, nominating: Bool) -> [Output] {
        guard let index = pairs.firstIndex(where: { $0.remote == address }) else { return [] }
        if nominating {
            nominationInFlight = false
            pairs[index].state = .failed
        } else if pairs[index].state != .succeeded {
            pairs[index].state = .failed
        }
        return nominateIfReady(now: nil)
    }

    // MARK: - Datagrams

    /// Handles one datagram from the socket.
    /// - Parameters:
    ///   - bytes: the datagram.
    ///   - sender: where it came from.
    ///   - now: the time.
    /// - Returns: replies, events and the datagram itself when it is DTLS or RTP from a checked address.
    public mutating func receive(_ bytes: [UInt8], from sender: SocketAddress, now: ContinuousClock.Instant) -> [Output] {
        let kind = MultiplexedPacketKind(classifying: bytes)
        switch kind {
        case .stun:
            guard let message = try? STUNMessage(parsing: bytes), message.hasValidFingerprint != false,
                  message.type.method == STUNMessageType.bindingMethod else {
                statistics.malformedSTUN += 1
                return []
            }
            switch message.type.messageClass {
            case .request: return answer(message, from: sender, now: now)
            case .successResponse, .errorResponse: return response(message, from: sender, now: now)
            case .indication: return []  // keep-alives (§11)
            }
        case .dtls, .rtp:
            guard answered.contains(sender) || pairs.contains(where: { $0.remote == sender && $0.state == .succeeded }) else {
                statistics.unverifiedDatagrams += 1
                return []
            }
            statistics.datagramsDelivered += 1
            return [.deliver(kind, bytes, from: sender)]
        default:
            return []
        }
    }

    /// The addresses whose checks we answered with a success.
    public private(set) var answered: Set<SocketAddress> = []

    /// A response to one of our checks (§7.2.5).
    private mutating func response(_ message: STUNMessage, from sender: SocketAddress, now: ContinuousClock.Instant) -> [Output] {
        guard let transaction = transactions[message.transactionID], transaction.remote == sender,
              message.hasValidIntegrity(key: Array(remote.password.utf8)) else {
            statistics.responsesDropped += 1
            return []
        }
        transactions[message.transactionID] = nil
        guard let index = pairs.firstIndex(where: { $0.remote == sender }) else { return [] }
        if message.type.messageClass == .errorResponse {
            let code = message.errorCode?.code ?? 0
            var outputs: [Output] = [.event(.checkRefused(sender, code: code))]
            if code == 487, !transaction.isConsent {
                // §7.2.5.1: switch roles and check the pair again.
                isControlling.toggle()
                outputs.append(.event(.roleChanged(controlling: isControlling)))
                if transaction.nominating { nominationInFlight = false }
                pairs[index].state = .waiting
                triggered.append(sender)
                return outputs
            }
            if transaction.isConsent { return outputs }
            return outputs + fail(sender, nominating: transaction.nominating)
        }
        statistics.responsesAccepted += 1
        if transaction.isConsent {
            lastConsent = now
            return []
        }
        var outputs: [Output] = []
        let wasValid = pairs[index].state == .succeeded
        pairs[index].state = .succeeded
        if !wasValid { outputs.append(.event(.checkSucceeded(sender))) }
        if transaction.nominating {
            nominationInFlight = false
            pairs[index].isNominated = true
            outputs += select(index, now: now)
        } else if !isControlling, pairs[index].peerNominated {
            pairs[index].isNominated = true
            outputs += select(index, now: now)
        }
        return outputs + nominateIfReady(now: now)
    }

    /// Regular nomination (§8.1.1): while controlling, with nothing selected or being nominated, the best valid
    /// pair is checked again with USE-CANDIDATE — once no better pair is still waiting or in progress.
    private mutating func nominateIfReady(now: ContinuousClock.Instant?) -> [Output] {
        guard isControlling, selected == nil, !nominationInFlight, let now,
              let best = pairs.firstIndex(where: { $0.state == .succeeded }) else { return [] }
        if pairs[..<best].contains(where: { $0.state == .waiting || $0.state == .inProgress }) { return [] }
        nominationInFlight = true
        return [check(best, nominating: true, now: now)]
    }

    private mutating func select(_ index: Int, now: ContinuousClock.Instant) -> [Output] {
        guard selected == nil else { return [] }
        selected = pairs[index].remote
        lastConsent = now
        nextConsentCheck = now + .milliseconds(Int.random(in: 4000...6000, using: &random))
        // §8.1.2: checks on other pairs stop once a pair is selected.
        transactions = transactions.filter { $0.value.remote == pairs[index].remote }
        triggered.removeAll()
        return [.event(.selected(pairs[index].remote))]
    }

    /// The answer to a check from the peer (§7.3) and what it triggers.
    private mutating func answer(_ request: STUNMessage, from sender: SocketAddress, now: ContinuousClock.Instant) -> [Output] {
        let key = Array(local.password.utf8)
        func refuse(_ code: Int, _ reason: String, withIntegrity: Bool, unknown: [UInt16] = []) -> [Output] {
            statistics.checksRefused += 1
            var response = STUNMessage(type: .bindingError, transactionID: request.transactionID, attributes: [.errorCode(code, reason: reason)])
            if !unknown.isEmpty { response.attributes.append(.unknownAttributes(unknown)) }
            return [.send(response.serialized(integrityKey: withIntegrity ? key : nil, addingFingerprint: true), to: sender),
                    .event(.requestRefused(from: sender, code: code))]
        }
        let unknown = request.unknownComprehensionRequiredTypes
        if !unknown.isEmpty { return refuse(420, "Unknown Attribute", withIntegrity: false, unknown: unknown) }
        guard request.hasIntegrity, let username = request.username else { return refuse(400, "Bad Request", withIntegrity: false) }
        let parts = username.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == local.userFragment, parts[1] == remote.userFragment, request.hasValidIntegrity(key: key) else {
            return refuse(401, "Unauthorized", withIntegrity: false)
        }
        var outputs: [Output] = []
        // Role conflicts (§7.3.1.1).
        if isControlling, let theirs = request.iceControlling {
            if tieBreaker >= theirs { return refuse(487, "Role Conflict", withIntegrity: true) }
            isControlling = false
            nominationInFlight = false
            outputs.append(.event(.roleChanged(controlling: false)))
        } else if !isControlling, let theirs = request.iceControlled {
            if tieBreaker >= theirs {
                isControlling = true
                outputs.append(.event(.roleChanged(controlling: true)))
            } else {
                return refuse(487, "Role Conflict", withIntegrity: true)
            }
        }
        statistics.checksAnswered += 1
        if answered.count < Self.maximumPairCount { answered.insert(sender) }
        let response = STUNMessage(type: .bindingSuccess, transactionID: request.transactionID,
                                   attributes: [.xorMappedAddress(STUNAddress(address: sender.addressBytes, port: sender.port),
                                                                  transactionID: request.transactionID)])
        outputs.append(.send(response.serialized(integrityKey: key, addingFingerprint: true), to: sender))
        // §7.3.1.3: a new peer-reflexive remote candidate; §7.3.1.4: a triggered check.
        var index = pairs.firstIndex { $0.remote == sender }
        if index == nil, pairs.count < Self.maximumPairCount, sender.family == localAddress.family {
            pairs.append(ICECandidatePair(remote: sender, remotePriority: request.priority ?? 0, isPeerReflexive: true))
            sortPairs()
            index = pairs.firstIndex { $0.remote == sender }
        }
        guard let index else { return outputs }
        if selected == nil, pairs[index].state == .waiting || pairs[index].state == .failed {
            if pairs[index].state == .failed { pairs[index].state = .waiting }
            if !triggered.contains(sender) { triggered.append(sender) }
            if nextCheck.map({ $0 > now + pacing }) ?? true { nextCheck = now }
        }
        // §7.3.1.5: the controlling peer nominates.
        if !isControlling, request.hasUseCandidate {
            pairs[index].peerNominated = true
            if pairs[index].state == .succeeded {
                pairs[index].isNominated = true
                outputs += select(index, now: now)
            }
        }
        return outputs + pacedCheck(now: now)
    }

    private mutating func sortPairs() {
        let local = localPriority, controlling = isControlling
        pairs.sort { $0.priority(localPriority: local, isControlling: controlling) > $1.priority(localPriority: local, isControlling: controlling) }
    }
}

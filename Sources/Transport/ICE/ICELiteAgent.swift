import POSIX
import Synchronization

/// The ICE-lite side of a server (RFC 8445 §2.5, §7.3): it answers the controlling agent's connectivity checks on
/// one UDP port and sends none of its own; the pair the peer nominates (USE-CANDIDATE) carries the media.
///
/// The port is shared by STUN, DTLS and SRTP (RFC 7983): STUN is answered here; a DTLS record or an RTP/RTCP packet
/// from an address that passed a check goes to the `datagrams` handler, from any other address it is dropped (and
/// counted). A check is answered with a Binding success carrying XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY with the local
/// password and FINGERPRINT (RFC 8445 §7.3.1.4); a check without integrity or USERNAME gets 400, with a wrong
/// user name or integrity 401 (without integrity: RFC 8489 §9.1.3), with an unknown comprehension-required attribute
/// 420, one claiming ICE-CONTROLLED too 487 (a lite agent is always controlled: RFC 8445 §6.1.1).
///
/// ```swift
/// let socket = try UDPSocket(bindingTo: .loopback(.ipv4, port: 0), on: loop)
/// let agent = ICELiteAgent(socket: socket, local: .random(), remoteUserFragment: offerUfrag) { kind, bytes, sender in … }
/// agent.start()
/// for await event in agent.events { if case let .nominated(peer) = event { … } }
/// ```
public final class ICELiteAgent: Sendable {
    /// The handler of DTLS and RTP/RTCP datagrams from checked addresses: their kind, bytes and sender.
    public typealias DatagramHandler = @Sendable (MultiplexedPacketKind, [UInt8], SocketAddress) -> Void

    /// Counts of what arrived.
    public struct Statistics: Hashable, Sendable {
        /// Binding requests answered with a success.
        public var checksAnswered = 0
        /// Binding requests refused (400/401/420/487).
        public var checksRefused = 0
        /// STUN datagrams that did not parse, or whose FINGERPRINT did not match (dropped).
        public var malformedSTUN = 0
        /// DTLS/RTP datagrams from addresses that passed no check (dropped).
        public var unverifiedDatagrams = 0
        /// Datagrams of another kind (dropped).
        public var otherDatagrams = 0
        /// DTLS and RTP/RTCP datagrams handed on.
        public var datagramsDelivered = 0

        /// Every count at zero.
        public init() {}
    }

    struct State: Sendable {
        var verified: Set<SocketAddress> = []
        var nominated: SocketAddress?
        var task: Task<Void, Never>?
        var isStopped = false
        var statistics = Statistics()
        var remoteUserFragment: String?
    }

    /// The socket, bound to the address of the host candidate.
    public let socket: UDPSocket
    /// The local credentials (the answer's `a=ice-ufrag` / `a=ice-pwd`).
    public let local: ICECredentials
    /// What happens, for one reading task (the newest 256 are kept while nobody reads); it finishes at ``stop()``.
    public let events: AsyncStream<ICELiteEvent>
    private let eventSink: AsyncStream<ICELiteEvent>.Continuation
    private let datagrams: DatagramHandler
    private let key: [UInt8]
    private let state: Mutex<State>
    /// The SOFTWARE attribute of responses, or `nil` for none.
    public let software: String?

    /// An agent on a bound socket.
    /// - Parameters:
    ///   - socket: the UDP socket of the host candidate.
    ///   - local: the local ufrag and password.
    ///   - remoteUserFragment: the peer's ufrag from its offer; `nil` accepts any (only the local half of USERNAME
    ///     and the integrity are checked).
    ///   - software: the SOFTWARE of responses.
    ///   - datagrams: the handler of DTLS and RTP/RTCP datagrams from checked addresses.
    public init(socket: UDPSocket, local: ICECredentials, remoteUserFragment: String?, software: String? = "StreamKit",
                datagrams: @escaping DatagramHandler) {
        self.socket = socket
        self.local = local
        self.software = software
        self.datagrams = datagrams
        key = Array(local.password.utf8)
        state = Mutex(State(remoteUserFragment: remoteUserFragment))
        (events, eventSink) = AsyncStream.makeStream(of: ICELiteEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Sets the peer's ufrag once it is known (a later offer, or an ICE restart).
    /// - Parameter fragment: the ufrag.
    public func setRemoteUserFragment(_ fragment: String) {
        state.withLock { $0.remoteUserFragment = fragment }
    }

    /// The address of the nominated pair's remote candidate, once the peer nominated one.
    public var nominatedAddress: SocketAddress? { state.withLock { $0.nominated } }

    /// The addresses whose checks succeeded.
    public var verifiedAddresses: Set<SocketAddress> { state.withLock { $0.verified } }

    /// A snapshot of the counters.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Starts answering (calling it again does nothing).
    public func start() {
        state.withLock { state in
            guard state.task == nil, !state.isStopped else { return }
            state.task = Task { [self] in await receiveLoop() }
        }
    }

    /// Stops: the receive task ends and ``events`` finishes; the socket stays open (it is the caller's).
    public func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.isStopped = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        eventSink.finish()
    }

    /// Sends a datagram (DTLS or SRTP) to the nominated address, or to the first verified one before nomination.
    /// - Parameter bytes: the datagram.
    /// - Returns: `false` when no check has succeeded yet, or the socket's buffer is full.
    /// - Throws: ``TransportError`` from the socket.
    @discardableResult
    public func send(_ bytes: [UInt8]) throws(TransportError) -> Bool {
        guard let destination = state.withLock({ $0.nominated ?? $0.verified.first }) else { return false }
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(TransportError) -> Bool in try socket.trySend(buffer, to: destination) }
        }
        return try result.get()
    }

    private func receiveLoop() async {
        while !Task.isCancelled {
            let datagram: UDPSocket.Datagram
            do {
                datagram = try await socket.receive(maximumCount: 2048)
            } catch {
                if case .system = error, !socket.socket.descriptor.isClosed { continue }
                return
            }
            handle(datagram.bytes, from: datagram.sender)
        }
    }

    /// Handles one datagram (internal so that tests and the fuzzer can drive it without a socket).
    func handle(_ bytes: [UInt8], from sender: SocketAddress) {
        let kind = MultiplexedPacketKind(classifying: bytes)
        switch kind {
        case .stun:
            if let reply = answer(bytes, from: sender) {
                _ = try? reply.withUnsafeBytes { buffer throws(TransportError) in try socket.trySend(buffer, to: sender) }
            }
        case .dtls, .rtp:
            let verified = state.withLock { state -> Bool in
                let known = state.verified.contains(sender)
                if known { state.statistics.datagramsDelivered += 1 } else { state.statistics.unverifiedDatagrams += 1 }
                return known
            }
            if verified { datagrams(kind, bytes, sender) }
        default:
            state.withLock { $0.statistics.otherDatagrams += 1 }
        }
    }

    /// The reply to a STUN datagram (RFC 8445 §7.3, RFC 8489 §6.3), or `nil` when none is due (not a request, or a
    /// bad FINGERPRINT: silently discarded, §7.3 of RFC 8489's FINGERPRINT use).
    func answer(_ bytes: [UInt8], from sender: SocketAddress) -> [UInt8]? {
        guard let request = try? STUNMessage(parsing: bytes), request.hasValidFingerprint != false else {
            state.withLock { $0.statistics.malformedSTUN += 1 }
            return nil
        }
        guard request.type == .bindingRequest else { return nil }  // indications (keep-alives) and responses
        func refuse(_ code: Int, _ reason: String, withIntegrity: Bool, unknown: [UInt16] = []) -> [UInt8] {
            state.withLock { $0.statistics.checksRefused += 1 }
            eventSink.yield(.checkRefused(from: sender, code: code))
            var response = STUNMessage(type: .bindingError, transactionID: request.transactionID, attributes: [.errorCode(code, reason: reason)])
            if !unknown.isEmpty { response.attributes.append(.unknownAttributes(unknown)) }
            if let software { response.attributes.append(.software(software)) }
            return response.serialized(integrityKey: withIntegrity ? key : nil, addingFingerprint: true)
        }
        let unknown = request.unknownComprehensionRequiredTypes
        if !unknown.isEmpty { return refuse(420, "Unknown Attribute", withIntegrity: false, unknown: unknown) }
        guard request.hasIntegrity, let username = request.username else { return refuse(400, "Bad Request", withIntegrity: false) }
        // USERNAME is "ours:theirs" (RFC 8445 §7.2.2).
        let parts = username.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let remote = state.withLock { $0.remoteUserFragment }
        guard parts.count == 2, parts[0] == local.userFragment, remote == nil || parts[1] == remote ?? "",
              request.hasValidIntegrity(key: key) else {
            return refuse(401, "Unauthorized", withIntegrity: false)
        }
        // A lite agent is controlled; a peer that says it is controlled too is in conflict (RFC 8445 §7.3.1.1).
        if request.iceControlled != nil { return refuse(487, "Role Conflict", withIntegrity: true) }
        let nominate = request.hasUseCandidate
        let (first, newlyNominated) = state.withLock { state -> (Bool, Bool) in
            state.statistics.checksAnswered += 1
            let first = state.verified.insert(sender).inserted
            guard nominate, state.nominated != sender else { return (first, false) }
            state.nominated = sender
            return (first, true)
        }
        if first { eventSink.yield(.checkSucceeded(from: sender)) }
        if newlyNominated { eventSink.yield(.nominated(sender)) }
        var response = STUNMessage(type: .bindingSuccess, transactionID: request.transactionID,
                                   attributes: [.xorMappedAddress(STUNAddress(address: sender.addressBytes, port: sender.port),
                                                                  transactionID: request.transactionID)])
        if let software { response.attributes.append(.software(software)) }
        return response.serialized(integrityKey: key, addingFingerprint: true)
    }
}

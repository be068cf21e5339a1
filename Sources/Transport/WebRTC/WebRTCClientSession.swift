import Bitstream
import POSIX
import RTP
import SRTP
import Synchronization

/// The publishing side of one WebRTC peer connection (what a WHIP client runs once its offer is answered): one UDP
/// port shared by ICE, DTLS and SRTP (RFC 7983, BUNDLE with rtcp-mux), a full controlling ICE agent
/// (``ICEFullAgent``: checks to the answer's candidates, regular nomination, consent freshness), DTLS in the role the
/// answer leaves us (RFC 8842 §5.1, RFC 5763 §5: the client when it says `a=setup:passive`, the server when it says
/// `active`) whose exported keys make the SRTP and SRTCP contexts (RFC 5764 §4.2), and then:
///
/// - **media out:** each frame's RTP packets given to ``send(_:kind:isKeyFrame:)``, rewritten to the payload type the
///   answer chose and our SSRC, kept in a bounded send history, SRTP-protected to the selected pair; video starts at a
///   key frame;
/// - **reports:** a sender report with SDES CNAME per track every ``WebRTCPeerSession/Configuration/senderReportInterval``;
/// - **feedback in:** PLI (RFC 4585 §6.3.1) and FIR (RFC 5104 §4.3.1) become
///   ``WebRTCPeerSessionEvent/keyFrameRequested(_:fullIntraRequest:)``; NACKs (RFC 4585 §6.2.1) are answered from
///   the history, as RFC 4588 retransmissions where rtx was negotiated;
/// - **the end:** ICE consent expiry (RFC 7675 §5.1), ICE failure, a handshake that does not finish within
///   ``WebRTCPeerSession/Configuration/handshakeTimeout``, DTLS failure or close_notify, RTCP BYE, or ``close()``.
///
/// What the peer sends that does not parse or authenticate is counted and dropped.
public final class WebRTCClientSession: Sendable {
    private struct State {
        var sender: WebRTCMediaSender
        var outbound: SRTPContext?
        var inbound: SRTPContext?
        var isClosed = false
        var dtlsStarted = false
        var lastReport: ContinuousClock.Instant
        var connectedAt: ContinuousClock.Instant?
    }

    /// The negotiated tracks.
    public let tracks: [WebRTCPeerSession.Track]
    /// Our UDP port's address (the offer's host candidate).
    public let localAddress: SocketAddress
    /// Our DTLS role.
    public let role: DTLSRole
    /// The timings and bounds.
    public let configuration: WebRTCPeerSession.Configuration
    /// What happens, for one reader (the newest 256 kept); it finishes when the session closes.
    public let events: AsyncStream<WebRTCPeerSessionEvent>

    private let eventSink: AsyncStream<WebRTCPeerSessionEvent>.Continuation
    private let socket: UDPSocket
    private let agent: ICEFullAgent
    private let dtls: Mutex<DTLSEngine>
    private let state: Mutex<State>
    private let tasks: Mutex<[Task<Void, Never>]>
    private let started: ContinuousClock.Instant

    /// Starts a session on a bound socket from an answer: ICE begins checking at once.
    /// - Parameters:
    ///   - answer: the endpoint's answer, checked against our offer.
    ///   - offer: our offer (its SSRCs are what we send with).
    ///   - local: our ICE credentials (the offer's).
    ///   - socket: the UDP socket of the offer's host candidate; the session owns it from now on and closes it.
    ///   - certificate: our certificate (its fingerprint is the offer's).
    ///   - configuration: timings and bounds.
    /// - Throws: ``WHIPClientError/dtls(_:)`` for a malformed fingerprint or a build without OpenSSL.
    public init(answer: WebRTCPublishAnswer, offer: WebRTCPublishOffer, local: ICECredentials, socket: UDPSocket,
                certificate: DTLSCertificate, configuration: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration())
        throws(WHIPClientError)
    {
        let role: DTLSRole = answer.setup == "passive" ? .client : .server
        let engine: DTLSEngine
        do {
            engine = try DTLSEngine(role: role, certificate: certificate, remoteFingerprint: try DTLSFingerprint(sdp: answer.fingerprint))
        } catch {
            socket.close()
            throw .dtls(error)
        }
        var tracks: [WebRTCPeerSession.Track] = []
        if let video = answer.track("video") {
            let rtx = video.retransmissionPayloadType
            tracks.append(WebRTCPeerSession.Track(kind: .video, payloadType: video.payloadType, ssrc: offer.videoSSRC, clockRate: 90000,
                                                  retransmissionPayloadType: rtx, retransmissionSSRC: rtx == nil ? nil : offer.videoRetransmissionSSRC))
        }
        if let audio = answer.track("audio") {
            tracks.append(WebRTCPeerSession.Track(kind: .audio, payloadType: audio.payloadType, ssrc: offer.audioSSRC, clockRate: 48000,
                                                  retransmissionPayloadType: nil, retransmissionSSRC: nil))
        }
        self.tracks = tracks
        self.role = role
        self.configuration = configuration
        self.socket = socket
        localAddress = socket.localAddress
        dtls = Mutex(engine)
        let now = ContinuousClock.now
        started = now
        state = Mutex(State(sender: WebRTCMediaSender(tracks: tracks, historyCapacity: configuration.historyCapacity,
                                                      maximumPacketSize: configuration.maximumPacketSize, cname: offer.cname),
                            lastReport: now))
        tasks = Mutex([])
        (events, eventSink) = AsyncStream.makeStream(of: WebRTCPeerSessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        var checks = ICECheckList(local: local, remote: ICECredentials(userFragment: answer.iceUserFragment, password: answer.icePassword),
                                  localAddress: socket.localAddress,
                                  remoteCandidates: answer.candidates.map { ($0.address, $0.port, $0.priority) })
        checks.consentTimeout = configuration.consentTimeout
        let reference = ClientSessionReference()
        agent = ICEFullAgent(socket: socket, checkList: checks) { kind, bytes, _ in
            reference.session?.receive(kind, bytes)
        }
        reference.session = self
        let iceEvents = agent.events
        agent.start()
        tasks.withLock {
            $0 = [Task { [weak self] in await self?.tick() },
                  Task { [weak self] in
                      for await event in iceEvents {
                          guard let self else { return }
                          self.handle(event)
                      }
                  }]
        }
    }

    /// Whether DTLS completed and the SRTP contexts exist.
    public var isConnected: Bool { state.withLock { $0.outbound != nil && !$0.isClosed } }

    /// Whether the session has closed.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// A snapshot of the media counters.
    public var statistics: WebRTCPeerSession.Statistics { state.withLock { $0.sender.statistics } }

    /// The ICE agent's counters.
    public var iceStatistics: ICECheckList.Statistics { agent.statistics }

    /// The selected pair's remote address, once ICE nominated one.
    public var selectedAddress: SocketAddress? { agent.selectedAddress }

    /// How long ICE and DTLS took, from the session's start to the SRTP keys, once connected.
    public var connectionTime: Duration? { state.withLock { $0.connectedAt.map { $0 - started } } }

    /// The track of a kind, if the answer accepted its section.
    /// - Parameter kind: video or audio.
    /// - Returns: the track.
    public func track(_ kind: WebRTCMediaKind) -> WebRTCPeerSession.Track? { tracks.first { $0.kind == kind } }

    /// Waits until the session is connected (ICE selected a pair and DTLS completed).
    /// - Throws: ``WHIPClientError/closed(_:)`` when it ended first, ``WHIPClientError/handshakeTimedOut(_:)``.
    public func waitUntilConnected() async throws(WHIPClientError) {
        while true {
            let (connected, closed) = state.withLock { ($0.outbound != nil, $0.isClosed) }
            if connected { return }
            if closed { throw .closed(closeReason.withLock { $0 } ?? .closedByOwner) }
            if ContinuousClock.now - started > configuration.handshakeTimeout { throw .handshakeTimedOut(configuration.handshakeTimeout) }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private let closeReason = Mutex<WebRTCPeerSessionCloseReason?>(nil)

    /// Sends one frame's RTP packets on the track of `kind` (see ``WebRTCPeerSession/send(_:kind:isKeyFrame:)``):
    /// rewritten to the negotiated payload type and our SSRC, kept for NACKs, protected, sent to the selected pair.
    /// - Parameters:
    ///   - packets: the frame's RTP packets, in order.
    ///   - kind: their track.
    ///   - isKeyFrame: whether the frame is a key frame (video starts at one).
    /// - Returns: whether the frame was sent.
    @discardableResult
    public func send(_ packets: [[UInt8]], kind: WebRTCMediaKind, isKeyFrame: Bool) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isClosed, let outbound = state.outbound else { return false }
            return state.sender.send(packets, kind: kind, isKeyFrame: isKeyFrame) { transmit(&$0, with: outbound) }
        }
    }

    /// Ends the session: DTLS close_notify, no more media; the socket closes.
    public func close() { close(.closedByOwner) }

    // MARK: - Receiving

    private func receive(_ kind: MultiplexedPacketKind, _ bytes: [UInt8]) {
        switch kind {
        case .dtls: receiveDTLS(bytes)
        case .rtp: receiveControl(bytes)
        default: return
        }
    }

    private func handle(_ event: ICEFullAgentEvent) {
        switch event {
        case .selected:
            guard role == .client else { return }
            state.withLock { $0.dtlsStarted = true }
            do throws(DTLSError) {
                for datagram in try dtls.withLock({ engine throws(DTLSError) in try engine.startHandshake() }) { _ = try? agent.send(datagram) }
            } catch {
                close(.dtlsFailed("\(error)"))
            }
        case .consentExpired:
            close(.consentExpired)
        case .failed:
            close(.handshakeTimedOut)
        default:
            return
        }
    }

    private func receiveDTLS(_ bytes: [UInt8]) {
        let outcome = dtls.withLock { engine -> Result<([DTLSEvent], [[UInt8]]), DTLSError> in
            do throws(DTLSError) {
                let events = try engine.feed(bytes)
                return .success((events, engine.takeOutgoingDatagrams()))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case let .failure(error):
            let datagrams = dtls.withLock { $0.takeOutgoingDatagrams() }
            for datagram in datagrams { _ = try? agent.send(datagram) }
            close(.dtlsFailed("\(error)"))
        case let .success((events, datagrams)):
            for datagram in datagrams { _ = try? agent.send(datagram) }
            for event in events {
                switch event {
                case let .handshakeComplete(keys): connect(keys)
                case .closed: close(.peerLeft)
                case .applicationData: continue
                }
            }
        }
    }

    private func connect(_ keys: DTLSSRTPKeys) {
        let contexts: (SRTPContext, SRTPContext)
        do {
            contexts = (try SRTPContext(material: keys.local), try SRTPContext(material: keys.remote))
        } catch {
            close(.dtlsFailed("SRTP: \(error)"))
            return
        }
        state.withLock { state in
            state.outbound = contexts.0
            state.inbound = contexts.1
            state.connectedAt = .now
        }
        if let address = agent.selectedAddress { eventSink.yield(.connected(address, profile: keys.profile)) }
    }

    /// SRTCP from the endpoint (RFC 5761 §4: packet types 192–223): receiver reports, NACK, PLI, FIR, BYE.
    private func receiveControl(_ bytes: [UInt8]) {
        guard bytes.count >= 8, (192...223).contains(bytes[1]) else { return }
        var packet = bytes
        guard let inbound = state.withLock({ $0.inbound }) else { return }
        let requests: RTCPFeedbackRequests
        do {
            try inbound.unprotectRTCP(&packet)
            requests = try RTCPFeedbackRequests(parsing: ByteView(packet))
        } catch {
            state.withLock { $0.sender.statistics.malformedControlPackets += 1 }
            return
        }
        if requests.isEmpty, let compound = try? RTCPCompoundPacket(parsing: packet),
           compound.packets.contains(where: { if case .goodbye = $0 { return true } else { return false } }) {
            close(.peerLeft)
            return
        }
        for track in tracks where requests.keyFrameSSRCs.contains(track.ssrc) {
            state.withLock { $0.sender.statistics.keyFrameRequests += 1 }
            eventSink.yield(.keyFrameRequested(track.kind, fullIntraRequest: requests.fullIntraRequests[track.ssrc] != nil))
        }
        for track in tracks {
            guard let numbers = requests.lostSequenceNumbers[track.ssrc], !numbers.isEmpty else { continue }
            let (sent, missing) = state.withLock { state -> (Int, Int) in
                guard !state.isClosed, let outbound = state.outbound else { return (0, numbers.count) }
                return state.sender.retransmit(numbers, kind: track.kind) { transmit(&$0, with: outbound) }
            }
            eventSink.yield(.retransmitted(sent: sent, missing: missing))
        }
    }

    // MARK: - Sending

    private func transmit(_ packet: inout [UInt8], with context: SRTPContext) -> Bool {
        do {
            try context.protectRTP(&packet)
            return try agent.send(packet)
        } catch {
            return false
        }
    }

    private func sendReports() {
        let milliseconds = RealTimeClock.millisecondsSinceEpoch()
        let ntp = NTPTimestamp(unixSeconds: UInt64(max(0, milliseconds / 1000)), nanoseconds: UInt32(max(0, milliseconds % 1000)) * 1_000_000)
        state.withLock { state in
            guard !state.isClosed, let outbound = state.outbound else { return }
            for var bytes in state.sender.reports(at: ntp) {
                do {
                    try outbound.protectRTCP(&bytes)
                    if try agent.send(bytes) { state.sender.statistics.senderReports += 1 }
                } catch {
                    continue
                }
            }
        }
    }

    // MARK: - Timers

    /// Every 20 ms: DTLS retransmission, the handshake deadline, sender reports.
    private func tick() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
            guard !isClosed else { return }
            let now = ContinuousClock.now
            do throws(DTLSError) {
                for datagram in try dtls.withLock({ engine throws(DTLSError) in try engine.retransmissionsDue(within: .milliseconds(20)) }) {
                    _ = try? agent.send(datagram)
                }
            } catch {
                close(.dtlsFailed("\(error)"))
                return
            }
            let (connected, reportDue) = state.withLock { state -> (Bool, Bool) in
                let due = now - state.lastReport >= configuration.senderReportInterval
                if due { state.lastReport = now }
                return (state.outbound != nil, due)
            }
            if !connected, now - started > configuration.handshakeTimeout {
                close(.handshakeTimedOut)
                return
            }
            if connected, reportDue { sendReports() }
        }
    }

    private func close(_ reason: WebRTCPeerSessionCloseReason) {
        let first = state.withLock { state -> Bool in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard first else { return }
        closeReason.withLock { $0 = $0 ?? reason }
        // A goodbye the endpoint can act on at once: RTCP BYE for our SSRCs, then DTLS close_notify.
        let goodbye = state.withLock { state -> [UInt8]? in
            guard let outbound = state.outbound, !tracks.isEmpty,
                  var bytes = try? RTCPCompoundPacket([.goodbye(RTCPGoodbye(ssrcs: tracks.map(\.ssrc)))]).serialized() else { return nil }
            return (try? outbound.protectRTCP(&bytes)) != nil ? bytes : nil
        }
        if let goodbye { _ = try? agent.send(goodbye) }
        let datagrams = dtls.withLock { engine -> [[UInt8]] in
            engine.close()
            return engine.takeOutgoingDatagrams()
        }
        for datagram in datagrams { _ = try? agent.send(datagram) }
        agent.stop()
        socket.close()
        let running = tasks.withLock { tasks -> [Task<Void, Never>] in
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
        eventSink.yield(.closed(reason))
        eventSink.finish()
    }
}

/// The session the ICE agent's handler calls, set once before the agent starts.
private final class ClientSessionReference: @unchecked Sendable {
    weak var session: WebRTCClientSession?
}

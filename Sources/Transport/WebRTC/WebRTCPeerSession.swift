import Bitstream
import POSIX
import RTP
import SRTP
import Synchronization

/// The server side of one WebRTC peer that receives our media (a WHEP viewer): one UDP port on the bound address
/// shared by ICE, DTLS and SRTP (RFC 7983, BUNDLE with rtcp-mux: RFC 8843, RFC 5761), ICE-lite answering the
/// viewer's checks (``ICELiteAgent``, RFC 8445 §2.5), DTLS in the role the offer leaves (RFC 5763 §5, RFC 8842 §5.3:
/// the server — `a=setup:passive` — for an offer of `active`, and of `actpass` unless ``Configuration/actpassRole`` says
/// client; the client — `a=setup:active`, its ClientHello sent once a check has succeeded — for an offer of `passive`)
/// whose exported keys make the SRTP and SRTCP contexts (RFC 5764 §4.2), and then:
///
/// - **media out:** the RTP packets of each frame handed to ``send(_:kind:isKeyFrame:)``, rewritten to the payload
///   type and SSRC negotiated for this viewer, kept unprotected in a bounded ``RTPSendHistory`` and protected with
///   SRTP to the nominated address; video starts at a key frame;
/// - **reports:** a sender report with SDES CNAME per track every ``Configuration/senderReportInterval``
///   (RFC 3550 §6.4.1), protected with SRTCP;
/// - **feedback in:** PLI (RFC 4585 §6.3.1) and FIR (RFC 5104 §4.3.1) become ``WebRTCPeerSessionEvent/keyFrameRequested(_:fullIntraRequest:)``;
///   a generic NACK (RFC 4585 §6.2.1) is answered from the history — as RFC 4588 retransmission under the rtx
///   payload type and SSRC where rtx was negotiated, else the packet itself again;
/// - **the end:** when no connectivity check has come for ``Configuration/consentTimeout`` (RFC 7675 §5.1), when the
///   handshake has not finished in ``Configuration/handshakeTimeout``, when DTLS fails or the peer leaves, or at
///   ``close()``.
///
/// Whatever the peer sends — malformed STUN, DTLS, SRTP or RTCP — is counted and dropped, or ends this session
/// alone; nothing it sends reaches another session.
public final class WebRTCPeerSession: Sendable {
    /// Timings and bounds.
    public struct Configuration: Sendable, Hashable {
        /// How long without a connectivity check before consent expires (RFC 7675 §5.1: 30 s).
        public var consentTimeout: Duration
        /// How long ICE and DTLS may take before the session gives up.
        public var handshakeTimeout: Duration
        /// The time between sender reports.
        public var senderReportInterval: Duration
        /// Packets kept per track for NACKs.
        public var historyCapacity: Int
        /// The largest RTP packet before protection (the SRTP tag is added to it).
        public var maximumPacketSize: Int
        /// A receiving session's jitter buffers, NACK and PLI timings (WHIP ingest).
        public var receiver = WebRTCMediaReceiver.Configuration()
        /// A test hook for a receiving session: when above 0, each RTP packet of a media payload type whose sequence
        /// number is a multiple of it is dropped on its first arrival, before SRTP (a loss of 1/N that a
        /// retransmission repairs). 0 in normal use.
        public var inboundLossInterval = 0
        /// A test hook for a receiving session: after this many video packets have arrived, every video packet is
        /// dropped for ``inboundOutageDuration``, and every retransmission (rtx) of video from then on — a loss no NACK
        /// can repair, so the publisher must answer the PLI with a key frame. 0 in normal use.
        public var inboundOutageAfter = 0
        /// How long the test hook's outage lasts.
        public var inboundOutageDuration: Duration = .zero
        /// Our DTLS role when the offer says `a=setup:actpass` (RFC 5763 §5 lets the answerer choose): ``DTLSRole/server``
        /// (default, `a=setup:passive`, as ICE-lite servers answer) or ``DTLSRole/client`` (`a=setup:active`).
        public var actpassRole: DTLSRole = .server

        /// A configuration.
        /// - Parameters:
        ///   - consentTimeout: consent expiry (default 30 s).
        ///   - handshakeTimeout: ICE and DTLS deadline (default 15 s).
        ///   - senderReportInterval: time between SRs (default 1 s).
        ///   - historyCapacity: packets kept per track (default 512).
        ///   - maximumPacketSize: the largest RTP packet (default 1200, as browsers send).
        public init(consentTimeout: Duration = .seconds(30), handshakeTimeout: Duration = .seconds(15),
                    senderReportInterval: Duration = .seconds(1), historyCapacity: Int = 512, maximumPacketSize: Int = 1200) {
            self.consentTimeout = consentTimeout
            self.handshakeTimeout = handshakeTimeout
            self.senderReportInterval = senderReportInterval
            self.historyCapacity = historyCapacity
            self.maximumPacketSize = maximumPacketSize
        }
    }

    /// What one accepted section sends with.
    public struct Track: Sendable, Hashable {
        /// Video or audio.
        public var kind: WebRTCMediaKind
        /// The payload type the viewer offered for the chosen codec.
        public var payloadType: UInt8
        /// Our SSRC on it.
        public var ssrc: UInt32
        /// The RTP clock rate (90000 for H.264, 48000 for Opus).
        public var clockRate: Int
        /// The rtx payload type, where rtx was negotiated.
        public var retransmissionPayloadType: UInt8?
        /// The rtx SSRC, where rtx was negotiated.
        public var retransmissionSSRC: UInt32?
    }

    /// Counters.
    public struct Statistics: Sendable, Hashable {
        /// RTP packets sent (retransmissions included).
        public var packetsSent = 0
        /// Bytes sent after protection.
        public var bytesSent = 0
        /// Packets not sent because the socket's buffer was full.
        public var packetsDropped = 0
        /// Video frames skipped while waiting for the first key frame.
        public var framesWithheld = 0
        /// Sender reports sent.
        public var senderReports = 0
        /// PLIs and FIRs received.
        public var keyFrameRequests = 0
        /// Sequence numbers NACKed.
        public var packetsNACKed = 0
        /// Packets sent again for NACKs.
        public var packetsRetransmitted = 0
        /// SRTCP packets that failed authentication or did not parse as RTCP.
        public var malformedControlPackets = 0
        /// SRTP packets a receiving session refused: failed authentication, or replayed (RFC 3711 §3.3.2).
        public var refusedMediaPackets = 0
        /// RTP packets a receiving session dropped under ``Configuration/inboundLossInterval`` or
        /// ``Configuration/inboundOutageAfter`` (test hooks).
        public var droppedForTest = 0
        /// Every count at zero.
        public init() {}
    }

    private struct State {
        /// The tracks' send histories, counters and reports (its statistics are the session's).
        var sender: WebRTCMediaSender
        var outbound: SRTPContext?
        var inbound: SRTPContext?
        var isClosed = false
        var checksSeen = 0
        var lastConsent: ContinuousClock.Instant
        var lastReport: ContinuousClock.Instant
        var dtlsStarted = false
    }

    /// The resource's id (the last segment of its WHEP `Location`).
    public let id: String
    /// The answer, as SDP text (`a=ice-lite`, `a=setup` of our ``role``, our fingerprint and host candidates).
    public let answer: String
    /// The accepted sections' tracks.
    public let tracks: [Track]
    /// Our DTLS role, from the offer's `a=setup` (RFC 5763 §5).
    public let role: DTLSRole
    /// The address of the UDP port (the answer's host candidate).
    public let localAddress: SocketAddress
    /// The timings and bounds.
    public let configuration: Configuration
    /// What happens, for one reader (the newest 256 kept); it finishes when the session closes.
    public let events: AsyncStream<WebRTCPeerSessionEvent>
    /// A receiving session's media (a WHIP publisher's), for one reader, with the newest
    /// ``receivedMediaLimit`` outputs kept when it falls behind; it finishes when the session closes. A session that
    /// only sends finishes it at once.
    public let receivedMedia: AsyncStream<WebRTCMediaReceiver.Output>
    /// Our SSRC as a receiver (the sender of our receiver reports, NACKs and PLIs).
    public let receiverSSRC: UInt32
    /// How many received outputs wait for the reader at most.
    public static let receivedMediaLimit = 4096

    private let eventSink: AsyncStream<WebRTCPeerSessionEvent>.Continuation
    private let socket: UDPSocket
    private let agent: ICELiteAgent
    private let dtls: Mutex<DTLSEngine>
    private let state: Mutex<State>
    private let ticker: Mutex<Task<Void, Never>?>
    private let onClose: @Sendable (String) -> Void
    private let receiver: Mutex<WebRTCMediaReceiver>
    private let isReceiving: Bool
    /// Whether reduced-size RTCP (RFC 5506) was negotiated: feedback then goes as lone packets, which FFmpeg's WHIP
    /// muxer needs (it reads a datagram as one NACK).
    private let reducedSizeRTCP: Bool
    private let receivedSink: AsyncStream<WebRTCMediaReceiver.Output>.Continuation
    private let receiveStart: ContinuousClock.Instant
    private let inboundLoss: Mutex<InboundLoss>

    /// Answers an offer: binds a UDP port, makes the answer and starts answering checks.
    /// - Parameters:
    ///   - offer: the viewer's offer (recvonly video and/or audio; H.264 packetization-mode 1 and Opus are taken).
    ///   - id: the resource id.
    ///   - address: the address to bind (port 0 for any); it is the answer's host candidate, or — for the wildcard address — each interface's address is one.
    ///   - loop: the event loop of the socket.
    ///   - certificate: our DTLS certificate (its fingerprint goes into the answer).
    ///   - sendingSSRCs: our SSRC per kind.
    ///   - retransmissionSSRCs: our rtx SSRC per kind (used where the offer has rtx).
    ///   - h264Profiles: the H.264 profiles accepted, preferred first (what the encoder makes first).
    ///   - sentH264: the `profile-level-id` of the H.264 sent, when known: the offered payload type that carries it is
    ///     chosen (RFC 6184 §8.2.2, ``WebRTCAnswerOptions/sentH264``).
    ///   - configuration: timings and bounds.
    ///   - receiving: whether the session takes media the peer sends (a WHIP ingest: its sections are answered
    ///     `recvonly` and their packets come out of ``receivedMedia``); it then sends media only where `sendingSSRCs`
    ///     names a kind.
    ///   - onClose: called once with `id` when the session closes (an endpoint forgets it then).
    /// - Throws: ``WebRTCSessionError``.
    public init(offer: WebRTCOffer, id: String, bindingTo address: SocketAddress, on loop: EventLoop, certificate: DTLSCertificate,
                sendingSSRCs: [WebRTCMediaKind: UInt32], retransmissionSSRCs: [WebRTCMediaKind: UInt32] = [:],
                h264Profiles: [WebRTCAnswerOptions.H264Profile] = [.constrainedBaseline, .high], sentH264: SDPH264Parameters.ProfileLevelID? = nil,
                configuration: Configuration = Configuration(), receiving: Bool = false,
                onClose: @escaping @Sendable (String) -> Void = { _ in })
        throws(WebRTCSessionError)
    {
        var probe = WebRTCAnswerOptions(iceUserFragment: "", icePassword: "", fingerprint: "", candidates: [],
                                        sends: !receiving || !sendingSSRCs.isEmpty, receives: receiving, h264Profiles: h264Profiles)
        probe.sentH264 = sentH264
        let choices = offer.choices(probe).filter { WebRTCMediaKind(rawValue: $0.kind) != nil }
        guard let first = choices.first else { throw .offer(.unrepresentableFormat("no offered section has H.264 (packetization-mode 1) or Opus")) }
        let section = offer.media[first.index]
        guard let remoteUfrag = section.iceUserFragment else { throw .missingOfferAttribute("ice-ufrag") }
        guard let fingerprintText = section.fingerprint else { throw .missingOfferAttribute("fingerprint") }
        let role = try Self.role(answering: section.setup, actpass: configuration.actpassRole)
        let remoteFingerprint: DTLSFingerprint
        let engine: DTLSEngine
        do {
            remoteFingerprint = try DTLSFingerprint(sdp: fingerprintText)
            engine = try DTLSEngine(role: role, certificate: certificate, remoteFingerprint: remoteFingerprint)
        } catch {
            throw .dtls(error)
        }
        let socket: UDPSocket
        do { socket = try UDPSocket(bindingTo: address, on: loop) } catch { throw .transport(error) }
        let local = ICECredentials.random()
        let bound = socket.localAddress
        let candidates = WebRTCCandidate.hostCandidates(of: bound)
        var options = probe
        options.iceUserFragment = local.userFragment
        options.icePassword = local.password
        options.fingerprint = certificate.fingerprint.sdpValue
        options.dtlsSetup = role.sdpSetup
        options.candidates = candidates
        options.sendingSSRCs = Dictionary(uniqueKeysWithValues: sendingSSRCs.map { ($0.key.rawValue, $0.value) })
        options.retransmissionSSRCs = Dictionary(uniqueKeysWithValues: retransmissionSSRCs.map { ($0.key.rawValue, $0.value) })
        options.sessionID = String(UInt32.random(in: 1...UInt32.max))
        let answer: SessionDescription
        do { answer = try offer.answer(options) } catch {
            socket.close()
            throw .offer(error)
        }
        var tracks: [Track] = []
        for choice in choices where choice.direction.hasPrefix("send") {
            guard let kind = WebRTCMediaKind(rawValue: choice.kind), let ssrc = sendingSSRCs[kind],
                  !tracks.contains(where: { $0.kind == kind }) else { continue }
            let rtx = choice.retransmission.flatMap { codec in retransmissionSSRCs[kind].map { (codec.payloadType, $0) } }
            tracks.append(Track(kind: kind, payloadType: choice.codec.payloadType, ssrc: ssrc, clockRate: choice.codec.rtpMap.clockRate,
                                retransmissionPayloadType: rtx?.0, retransmissionSSRC: rtx?.1))
        }
        receiver = Mutex(WebRTCMediaReceiver(tracks: receiving ? Self.receivedTracks(choices, offer: offer) : [], configuration: configuration.receiver))
        isReceiving = receiving
        reducedSizeRTCP = choices.contains { offer.media.indices.contains($0.index) && offer.media[$0.index].rtcpReducedSize }
        receiverSSRC = UInt32.random(in: 1...UInt32.max)
        receiveStart = .now
        inboundLoss = Mutex(InboundLoss())
        (receivedMedia, receivedSink) = AsyncStream.makeStream(of: WebRTCMediaReceiver.Output.self,
                                                               bufferingPolicy: .bufferingNewest(Self.receivedMediaLimit))
        if !receiving { receivedSink.finish() }
        self.id = id
        self.answer = answer.text
        self.tracks = tracks
        self.role = role
        self.configuration = configuration
        self.socket = socket
        self.onClose = onClose
        localAddress = bound
        dtls = Mutex(engine)
        let now = ContinuousClock.now
        state = Mutex(State(sender: WebRTCMediaSender(tracks: tracks, historyCapacity: configuration.historyCapacity,
                                                      maximumPacketSize: configuration.maximumPacketSize),
                            lastConsent: now, lastReport: now))
        ticker = Mutex(nil)
        (events, eventSink) = AsyncStream.makeStream(of: WebRTCPeerSessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        let reference = SessionReference()
        agent = ICELiteAgent(socket: socket, local: local, remoteUserFragment: remoteUfrag) { kind, bytes, _ in
            reference.session?.receive(kind, bytes)
        }
        reference.session = self
        agent.start()
        let start = now
        ticker.withLock { $0 = Task { [weak self] in await self?.tick(since: start) } }
    }

    /// Our DTLS role for an offer's `a=setup` (RFC 5763 §5, RFC 4145 §4): the server for `active` (and for none: the
    /// offerer's default is `active`), the client for `passive`, `actpass`'s choice for `actpass`.
    /// - Parameters:
    ///   - setup: the offer's `a=setup` value, if any.
    ///   - actpass: the role taken for `actpass`.
    /// - Returns: our role.
    /// - Throws: ``WebRTCSessionError/setupRole(_:)`` for `holdconn` or an unknown value.
    static func role(answering setup: String?, actpass: DTLSRole) throws(WebRTCSessionError) -> DTLSRole {
        switch setup?.lowercased() {
        case nil, "active": .server
        case "passive": .client
        case "actpass": actpass
        case let other?: throw .setupRole(other)
        }
    }

    /// Whether the session is connected: DTLS completed and the SRTP contexts exist.
    public var isConnected: Bool { state.withLock { $0.outbound != nil && !$0.isClosed } }

    /// Whether the session has closed.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// A snapshot of the counters.
    public var statistics: Statistics { state.withLock { $0.sender.statistics } }

    /// The ICE agent's counters (checks answered and refused, dropped datagrams).
    public var iceStatistics: ICELiteAgent.Statistics { agent.statistics }

    /// The track of a kind, if its section was accepted.
    /// - Parameter kind: video or audio.
    /// - Returns: the track.
    public func track(_ kind: WebRTCMediaKind) -> Track? { tracks.first { $0.kind == kind } }

    /// Sends one frame's RTP packets on the track of `kind`: each rewritten to the track's payload type and SSRC
    /// (marker, sequence number and timestamp kept), kept in the history, protected and sent to the nominated address.
    /// Nothing is sent before the session is connected, and no video before a key frame.
    /// - Parameters:
    ///   - packets: the frame's RTP packets, in order.
    ///   - kind: their track.
    ///   - isKeyFrame: whether the frame is a key frame (video starts at one).
    /// - Returns: whether the frame was sent.
    @discardableResult
    public func send(_ packets: [[UInt8]], kind: WebRTCMediaKind, isKeyFrame: Bool) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isClosed, let outbound = state.outbound else { return false }
            return state.sender.send(packets, kind: kind, isKeyFrame: isKeyFrame) { transmitRTP(&$0, with: outbound) }
        }
    }

    /// Ends the session: no more media; the socket closes; ``events`` reports ``WebRTCPeerSessionCloseReason/closedByOwner``.
    public func close() { close(.closedByOwner) }

    // MARK: - Receiving

    /// A DTLS record or an SRTP/SRTCP packet from the checked address (the ICE agent's task).
    private func receive(_ kind: MultiplexedPacketKind, _ bytes: [UInt8]) {
        switch kind {
        case .dtls: receiveDTLS(bytes)
        case .rtp:
            if bytes.count >= 2, (192...223).contains(bytes[1]) { receiveControl(bytes) } else { receiveMedia(bytes) }
        default: return
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
            flushDTLS()
            close(.dtlsFailed("\(error)"))
        case let .success((events, datagrams)):
            for datagram in datagrams { _ = try? agent.send(datagram) }
            for event in events {
                switch event {
                case let .handshakeComplete(keys): connect(keys)
                case .closed: close(.peerLeft)
                case .applicationData: continue  // data channels are not offered by a WHEP viewer we answer
                }
            }
        }
    }

    private func flushDTLS() {
        let datagrams = dtls.withLock { $0.takeOutgoingDatagrams() }
        for datagram in datagrams { _ = try? agent.send(datagram) }
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
        }
        if let address = agent.nominatedAddress ?? agent.verifiedAddresses.first {
            eventSink.yield(.connected(address, profile: keys.profile))
        }
    }

    /// An SRTCP packet (RFC 5761 §4: payload type 64–95 after the marker bit, i.e. packet types 192–223) from the
    /// viewer; SRTP from a viewer that should send none is dropped.
    private func receiveControl(_ bytes: [UInt8]) {
        guard bytes.count >= 8, (192...223).contains(bytes[1]) else { return }
        var packet = bytes
        let inbound = state.withLock { $0.inbound }
        guard let inbound else { return }
        let requests: RTCPFeedbackRequests
        do {
            try inbound.unprotectRTCP(&packet)
            requests = try RTCPFeedbackRequests(parsing: ByteView(packet))
        } catch {
            state.withLock { $0.sender.statistics.malformedControlPackets += 1 }
            return
        }
        noteReceivedControl(packet)
        var compound: RTCPCompoundPacket?
        if requests.isEmpty { compound = try? RTCPCompoundPacket(parsing: packet) }
        if let compound, compound.packets.contains(where: { if case .goodbye = $0 { return true } else { return false } }) {
            close(.peerLeft)
            return
        }
        for track in tracks where requests.keyFrameSSRCs.contains(track.ssrc) {
            state.withLock { $0.sender.statistics.keyFrameRequests += 1 }
            eventSink.yield(.keyFrameRequested(track.kind, fullIntraRequest: requests.fullIntraRequests[track.ssrc] != nil))
        }
        for track in tracks {
            guard let numbers = requests.lostSequenceNumbers[track.ssrc], !numbers.isEmpty else { continue }
            let (sent, missing) = retransmit(numbers, kind: track.kind)
            eventSink.yield(.retransmitted(sent: sent, missing: missing))
        }
    }

    /// Sends the NACKed packets again from the history: RFC 4588 packets where rtx was negotiated, else as they were.
    private func retransmit(_ numbers: [UInt16], kind: WebRTCMediaKind) -> (sent: Int, missing: Int) {
        state.withLock { state -> (Int, Int) in
            guard !state.isClosed, let outbound = state.outbound else { return (0, numbers.count) }
            return state.sender.retransmit(numbers, kind: kind) { transmitRTP(&$0, with: outbound) }
        }
    }

    // MARK: - Sending

    /// Protects one RTP packet in place and sends it to the checked address; whether it went.
    private func transmitRTP(_ packet: inout [UInt8], with context: SRTPContext) -> Bool {
        do {
            try context.protectRTP(&packet)
            return try agent.send(packet)
        } catch {
            return false
        }
    }

    /// A sender report and SDES CNAME (RFC 3550 §6.4.1, §6.5.1) for each track that has sent: the NTP time now, and
    /// the RTP time of now on the track's clock, extrapolated from its last packet.
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

    // MARK: - Receiving media (WHIP ingest)

    /// A receiving session's counters: per track, packets, NACKs, recoveries, frames, PLIs (`nil` for a session
    /// that only sends).
    public var receiverStatistics: WebRTCMediaReceiver.Statistics? { isReceiving ? receiver.withLock { $0.statistics } : nil }

    /// The receiver's tracks: each accepted section the peer sends on, with its payload types and whether NACKs are
    /// sent for it (the offer's `a=rtcp-fb:… nack`, or rtx).
    private static func receivedTracks(_ choices: [WebRTCOffer.Choice], offer: WebRTCOffer) -> [WebRTCMediaReceiver.Track] {
        var tracks: [WebRTCMediaReceiver.Track] = []
        for choice in choices where choice.direction.hasSuffix("recv") || choice.direction == "recvonly" {
            guard !tracks.contains(where: { $0.kind == choice.kind }) else { continue }
            let nack = choice.codec.feedback.contains("nack") || choice.retransmission != nil
            tracks.append(WebRTCMediaReceiver.Track(kind: choice.kind, payloadType: choice.codec.payloadType,
                                                    retransmissionPayloadType: choice.retransmission?.payloadType,
                                                    clockRate: choice.codec.rtpMap.clockRate, sendsNACK: nack))
        }
        return tracks
    }

    /// The time on the receiver's clock.
    private var receiveTime: Duration { ContinuousClock.now - receiveStart }

    /// An SRTP packet from the publisher: the test hook's loss, SRTP unprotection with its replay window (RFC 3711
    /// §3.3.2), then the receiver (jitter buffer, depacketizers); the NACKs and PLI it then wants are sent at once.
    private func receiveMedia(_ bytes: [UInt8]) {
        guard isReceiving, bytes.count >= 12 else { return }
        if configuration.inboundLossInterval > 0 || configuration.inboundOutageAfter > 0, dropsForTest(bytes) {
            state.withLock { $0.sender.statistics.droppedForTest += 1 }
            return
        }
        guard let inbound = state.withLock({ $0.inbound }) else { return }
        var packet = bytes
        do { try inbound.unprotectRTP(&packet) } catch {
            state.withLock { $0.sender.statistics.refusedMediaPackets += 1 }
            return
        }
        let now = receiveTime
        let view = ByteView(packet)
        var outputs: [WebRTCMediaReceiver.Output] = []
        let feedback = receiver.withLock { receiver -> [RTCPPacket] in
            receiver.receive(view, at: now) { outputs.append($0) }
            return receiver.feedback(at: now, senderSSRC: receiverSSRC)
        }
        for output in outputs { receivedSink.yield(output) }
        sendFeedback(feedback)
    }

    /// Sends NACKs and PLIs: each alone where reduced-size RTCP was negotiated (RFC 5506 §3), else behind an empty
    /// receiver report in one compound packet (RFC 3550 §6.1: a compound packet starts with a report).
    private func sendFeedback(_ feedback: [RTCPPacket]) {
        guard !feedback.isEmpty else { return }
        if reducedSizeRTCP {
            for packet in feedback { sendControl(RTCPCompoundPacket([packet])) }
        } else {
            sendControl(RTCPCompoundPacket([.receiverReport(RTCPReceiverReport(ssrc: receiverSSRC))] + feedback))
        }
    }

    /// The test hooks: ``Configuration/inboundLossInterval`` drops the first arrival of a media packet whose sequence
    /// number is a multiple of the interval; ``Configuration/inboundOutageAfter`` drops every video packet for
    /// ``Configuration/inboundOutageDuration`` once that many have arrived, and every video retransmission from then on.
    private func dropsForTest(_ bytes: [UInt8]) -> Bool {
        let payloadType = bytes[1] & 0x7F
        guard isReceiving else { return false }
        if configuration.inboundOutageAfter > 0,
           let video = receiver.withLock({ $0.tracks.first { $0.kind == "video" } }),
           video.payloadType == payloadType || video.retransmissionPayloadType == payloadType {
            let now = ContinuousClock.now, after = configuration.inboundOutageAfter, duration = configuration.inboundOutageDuration
            let isRetransmission = payloadType != video.payloadType
            let dropped = inboundLoss.withLock { loss -> Bool in
                if !isRetransmission { loss.videoPackets += 1 }
                if loss.outageStart == nil, loss.videoPackets > after { loss.outageStart = now }
                guard let start = loss.outageStart else { return false }
                return isRetransmission || now - start < duration
            }
            if dropped { return true }
        }
        guard configuration.inboundLossInterval > 0,
              receiver.withLock({ $0.tracks.contains { $0.payloadType == payloadType } }) else { return false }
        let sequence = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        guard Int(sequence) % configuration.inboundLossInterval == 0 else { return false }
        let key = UInt32(payloadType) << 16 | UInt32(sequence)
        return inboundLoss.withLock { loss in
            if loss.dropped.count > 65536 { loss.dropped.removeAll() }
            return loss.dropped.insert(key).inserted
        }
    }

    /// Sender reports from the publisher, for the receiver reports and lip sync.
    private func noteReceivedControl(_ packet: [UInt8]) {
        guard isReceiving, let compound = try? RTCPCompoundPacket(parsing: packet) else { return }
        let now = receiveTime
        receiver.withLock { $0.receiveControl(compound, at: now) }
    }

    /// Every tick: what waited long enough for its holes goes on; NACKs and PLIs due; a receiver report when due.
    private func advanceReceiver(reportDue: Bool) {
        guard isReceiving else { return }
        let now = receiveTime
        var outputs: [WebRTCMediaReceiver.Output] = []
        let (feedback, report) = receiver.withLock { receiver -> ([RTCPPacket], RTCPCompoundPacket?) in
            receiver.advance(to: now) { outputs.append($0) }
            return (receiver.feedback(at: now, senderSSRC: receiverSSRC),
                    reportDue ? receiver.receiverReport(at: now, senderSSRC: receiverSSRC) : nil)
        }
        for output in outputs { receivedSink.yield(output) }
        if let report { sendControl(report) }
        sendFeedback(feedback)
    }

    /// Protects an RTCP packet with SRTCP and sends it to the nominated address.
    private func sendControl(_ compound: RTCPCompoundPacket) {
        guard var bytes = try? compound.serialized() else { return }
        let outbound = state.withLock { $0.isClosed ? nil : $0.outbound }
        guard let outbound else { return }
        do {
            try outbound.protectRTCP(&bytes)
            _ = try agent.send(bytes)
        } catch {
            return
        }
    }

    /// At the end: what the receiver still holds is handed on, and ``receivedMedia`` finishes.
    private func finishReceiving() {
        guard isReceiving else { return }
        var outputs: [WebRTCMediaReceiver.Output] = []
        receiver.withLock { $0.finish { outputs.append($0) } }
        for output in outputs { receivedSink.yield(output) }
        receivedSink.finish()
    }

    // MARK: - Timers

    /// Every 50 ms: DTLS retransmission, the handshake deadline, ICE consent, sender reports.
    private func tick(since start: ContinuousClock.Instant) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(50))
            guard !isClosed else { return }
            let now = ContinuousClock.now
            if role == .client, !state.withLock({ $0.dtlsStarted }), !agent.verifiedAddresses.isEmpty, !startHandshake() { return }
            do throws(DTLSError) {
                for datagram in try dtls.withLock({ engine throws(DTLSError) in try engine.retransmissionsDue(within: .milliseconds(50)) }) {
                    _ = try? agent.send(datagram)
                }
            } catch {
                close(.dtlsFailed("\(error)"))
                return
            }
            let checks = agent.statistics.checksAnswered
            let (connected, consentAge, reportDue) = state.withLock { state -> (Bool, Duration, Bool) in
                if checks != state.checksSeen {
                    state.checksSeen = checks
                    state.lastConsent = now
                }
                let due = now - state.lastReport >= configuration.senderReportInterval
                if due { state.lastReport = now }
                return (state.outbound != nil, now - state.lastConsent, due)
            }
            if !connected, now - start > configuration.handshakeTimeout {
                close(.handshakeTimedOut)
                return
            }
            if consentAge > configuration.consentTimeout {
                close(.consentExpired)
                return
            }
            if connected, reportDue { sendReports() }
            if connected { advanceReceiver(reportDue: reportDue) }
        }
    }

    /// As the DTLS client: sends the ClientHello once a connectivity check has succeeded (the peer then knows the
    /// pair), to the nominated address or the checked one.
    /// - Returns: `false` when the handshake could not start (the session is then closed).
    private func startHandshake() -> Bool {
        state.withLock { $0.dtlsStarted = true }
        do throws(DTLSError) {
            for datagram in try dtls.withLock({ engine throws(DTLSError) in try engine.startHandshake() }) { _ = try? agent.send(datagram) }
            return true
        } catch {
            close(.dtlsFailed("\(error)"))
            return false
        }
    }

    private func close(_ reason: WebRTCPeerSessionCloseReason) {
        let first = state.withLock { state -> Bool in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard first else { return }
        agent.stop()
        socket.close()
        let task = ticker.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        task?.cancel()
        finishReceiving()
        eventSink.yield(.closed(reason))
        eventSink.finish()
        onClose(id)
    }
}

/// The test hook's memory: the sequence numbers dropped once already (so that their repair passes).
private struct InboundLoss {
    /// Video packets seen by the outage hook.
    var videoPackets = 0
    /// When the outage began.
    var outageStart: ContinuousClock.Instant?
    var dropped: Set<UInt32> = []
}

/// The session the ICE agent's handler calls, set once before the agent starts.
private final class SessionReference: @unchecked Sendable {
    weak var session: WebRTCPeerSession?
}

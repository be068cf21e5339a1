import RTP

/// The sending half of a WebRTC session without its transport: per track the payload type and SSRC rewriting, the
/// bounded send history that NACKs are answered from (RFC 4585 §6.2.1, as RFC 4588 retransmissions under the rtx
/// payload type and SSRC where negotiated), the packet and octet counts and the sender reports with SDES CNAME
/// (RFC 3550 §6.4.1, §6.5.1). The caller protects and sends what it is handed (`emit`), and says whether it went.
/// Both ends of WebRTC media keep one: the server's ``WebRTCPeerSession`` (WHEP) and the client's
/// ``WebRTCClientSession`` (WHIP).
struct WebRTCMediaSender: Sendable {
    private struct TrackState: Sendable {
        var track: WebRTCPeerSession.Track
        var history: RTPSendHistory
        var packetCount: UInt32 = 0
        var octetCount: UInt32 = 0
        var lastTimestamp: UInt32?
        var lastSent: ContinuousClock.Instant?
        var nextRetransmissionSequence = UInt16.random(in: 0...UInt16.max)
    }

    private var tracks: [TrackState]
    private var buffer: [UInt8] = []
    /// Whether a video key frame has been sent (video starts at one).
    private(set) var videoStarted = false
    /// The counters.
    var statistics = WebRTCPeerSession.Statistics()
    /// The CNAME of the sender reports.
    let cname: String

    /// A sender.
    /// - Parameters:
    ///   - tracks: the negotiated tracks.
    ///   - historyCapacity: packets kept per track.
    ///   - maximumPacketSize: the largest RTP packet kept.
    ///   - cname: the CNAME.
    init(tracks: [WebRTCPeerSession.Track], historyCapacity: Int, maximumPacketSize: Int, cname: String = "streamkit") {
        self.tracks = tracks.map { TrackState(track: $0, history: RTPSendHistory(capacity: historyCapacity, maximumPacketSize: maximumPacketSize + 64)) }
        self.cname = cname
    }

    /// Rewrites one frame's packets to the track's payload type and SSRC, records them and hands each to `emit`.
    /// - Parameters:
    ///   - packets: the frame's RTP packets.
    ///   - kind: their track.
    ///   - isKeyFrame: whether it is a key frame.
    ///   - emit: protects and sends one packet (in place); returns whether it was sent.
    /// - Returns: whether the frame was taken (its track exists; video has started).
    mutating func send(_ packets: [[UInt8]], kind: WebRTCMediaKind, isKeyFrame: Bool, emit: (inout [UInt8]) -> Bool) -> Bool {
        guard let index = tracks.firstIndex(where: { $0.track.kind == kind }) else { return false }
        if kind == .video, !videoStarted {
            guard isKeyFrame else {
                statistics.framesWithheld += 1
                return false
            }
            videoStarted = true
        }
        let track = tracks[index].track
        for packet in packets where packet.count >= 12 {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: packet)
            buffer[1] = (packet[1] & 0x80) | (track.payloadType & 0x7F)
            Self.store(track.ssrc, in: &buffer, at: 8)
            buffer.withUnsafeBytes { tracks[index].history.record($0) }
            tracks[index].packetCount &+= 1
            tracks[index].octetCount &+= UInt32(truncatingIfNeeded: packet.count - 12)
            tracks[index].lastTimestamp = UInt32(packet[4]) << 24 | UInt32(packet[5]) << 16 | UInt32(packet[6]) << 8 | UInt32(packet[7])
            tracks[index].lastSent = .now
            count(emit(&buffer), bytes: buffer.count)
        }
        return true
    }

    /// Sends NACKed packets again from the history.
    /// - Parameters:
    ///   - numbers: the sequence numbers asked for.
    ///   - kind: their track.
    ///   - emit: protects and sends one packet.
    /// - Returns: how many were sent, and how many were no longer kept.
    mutating func retransmit(_ numbers: [UInt16], kind: WebRTCMediaKind, emit: (inout [UInt8]) -> Bool) -> (sent: Int, missing: Int) {
        guard let index = tracks.firstIndex(where: { $0.track.kind == kind }) else { return (0, numbers.count) }
        statistics.packetsNACKed += numbers.count
        var sent = 0
        for number in numbers {
            guard let original = tracks[index].history.packet(number) else { continue }
            let track = tracks[index].track
            var packet = original
            if let payloadType = track.retransmissionPayloadType, let ssrc = track.retransmissionSSRC {
                guard let repair = RTPRetransmission.packet(repairing: original, payloadType: payloadType, ssrc: ssrc,
                                                            sequenceNumber: tracks[index].nextRetransmissionSequence) else { continue }
                tracks[index].nextRetransmissionSequence &+= 1
                packet = repair
            }
            count(emit(&packet), bytes: packet.count)
            sent += 1
        }
        statistics.packetsRetransmitted += sent
        return (sent, numbers.count - sent)
    }

    /// A sender report and SDES CNAME per track that has sent: NTP time now and the RTP time of now on the track's
    /// clock, extrapolated from its last packet.
    /// - Parameter ntp: the wall-clock time now.
    /// - Returns: the compound RTCP packets, unprotected.
    func reports(at ntp: NTPTimestamp) -> [[UInt8]] {
        tracks.compactMap { track -> [UInt8]? in
            guard let timestamp = track.lastTimestamp, let sent = track.lastSent else { return nil }
            let elapsed = ContinuousClock.now - sent
            let ticks = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * Double(track.track.clockRate)
            let report = RTCPSenderReport(ssrc: track.track.ssrc, ntpTimestamp: ntp, rtpTimestamp: timestamp &+ UInt32(truncatingIfNeeded: Int(ticks)),
                                          packetCount: track.packetCount, octetCount: track.octetCount)
            return try? RTCPCompoundPacket([.senderReport(report),
                                            .sourceDescription(RTCPSourceDescription(ssrc: track.track.ssrc, canonicalName: cname))]).serialized()
        }
    }

    private mutating func count(_ sent: Bool, bytes: Int) {
        if sent {
            statistics.packetsSent += 1
            statistics.bytesSent += bytes
        } else {
            statistics.packetsDropped += 1
        }
    }

    private static func store(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }
}

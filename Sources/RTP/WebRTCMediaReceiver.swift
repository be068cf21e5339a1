import Bitstream

/// The receiving half of a WebRTC session's media (what a WHIP ingest does with the publisher's packets once SRTP
/// has unprotected them), on bytes and the caller's clock, no sockets:
///
/// - **demultiplexing** by payload type within the BUNDLE (RFC 8843 §9.2): the negotiated H.264 and Opus payload
///   types, and their rtx payload types (RFC 4588 §4: the original sequence number in the first two bytes of the
///   payload, restored before the packet goes on); each track's SSRC is the first one seen on it;
/// - a **jitter buffer with NACK** per track (``RTPNACKJitterBuffer``): reordering, duplicates, holes asked for
///   with generic NACKs (RFC 4585 §6.2.1) and given up after a bounded wait;
/// - **depacketizing** H.264 (RFC 6184: single NAL unit, STAP-A, FU-A; ``H264Depacketizer``, which withholds pictures
///   after a loss until the next IDR) and Opus (RFC 7587; ``OpusDepacketizer``) into access units with their RTP
///   times and arrival times;
/// - **PLI** (RFC 4585 §6.3.1) while no key frame has arrived, and after a picture could not be completed, at most
///   one per ``Configuration/keyFrameRequestInterval``;
/// - **receiver reports** (RFC 3550 §6.4.2) with each track's loss, jitter and the last sender report's time.
///
/// Whatever a peer sends is counted and dropped when it is not what was negotiated; nothing traps, and memory is
/// bounded by the buffers' capacities and the depacketizer's largest access unit.
public struct WebRTCMediaReceiver: Sendable {
    /// One negotiated section the receiver takes.
    public struct Track: Sendable, Hashable {
        /// `video` (H.264) or `audio` (Opus).
        public var kind: String
        /// The media payload type.
        public var payloadType: UInt8
        /// The rtx payload type, where negotiated.
        public var retransmissionPayloadType: UInt8?
        /// The RTP clock rate.
        public var clockRate: Int
        /// Whether NACKs are sent for it (`a=rtcp-fb:… nack` or rtx negotiated).
        public var sendsNACK: Bool

        /// A track.
        /// - Parameters:
        ///   - kind: `video` or `audio`.
        ///   - payloadType: the media payload type.
        ///   - retransmissionPayloadType: the rtx payload type.
        ///   - clockRate: the clock rate.
        ///   - sendsNACK: whether holes are asked for.
        public init(kind: String, payloadType: UInt8, retransmissionPayloadType: UInt8? = nil, clockRate: Int, sendsNACK: Bool = true) {
            self.kind = kind
            self.payloadType = payloadType
            self.retransmissionPayloadType = retransmissionPayloadType
            self.clockRate = clockRate
            self.sendsNACK = sendsNACK
        }
    }

    /// The receiver's bounds and timings.
    public struct Configuration: Sendable, Hashable {
        /// Each track's jitter buffer.
        public var buffer: RTPNACKJitterBuffer.Configuration
        /// The shortest time between two PLIs.
        public var keyFrameRequestInterval: Duration
        /// The largest access unit in bytes.
        public var maximumAccessUnitSize: Int

        /// A configuration.
        /// - Parameters:
        ///   - buffer: the jitter buffers' bounds.
        ///   - keyFrameRequestInterval: the shortest time between PLIs (default 500 ms).
        ///   - maximumAccessUnitSize: the largest access unit (default 4 MiB).
        public init(buffer: RTPNACKJitterBuffer.Configuration = RTPNACKJitterBuffer.Configuration(),
                    keyFrameRequestInterval: Duration = .milliseconds(500), maximumAccessUnitSize: Int = 4 << 20) {
            self.buffer = buffer
            self.keyFrameRequestInterval = keyFrameRequestInterval
            self.maximumAccessUnitSize = maximumAccessUnitSize
        }
    }

    /// What the receiver hands on.
    public enum Output: Sendable {
        /// A whole H.264 access unit (its NAL units are views of the datagrams they came in) and when its last packet
        /// was released.
        case video(RTPAccessUnit, arrival: Duration)
        /// One Opus packet and when it was released.
        case audio(RTPAudioFrame, arrival: Duration)
        /// A frame of `kind` not handed on: lost, or withheld until a key frame.
        case lost(kind: String, RTPFrameEvent<RTPAccessUnit>)
    }

    /// Counts for one track.
    public struct TrackStatistics: Sendable, Hashable {
        /// The track's SSRC, once seen.
        public var ssrc: UInt32?
        /// What its jitter buffer saw.
        public var packets = RTPNACKJitterBuffer.Statistics()
        /// rtx packets received.
        public var retransmissions = 0
        /// Packets on the track's payload type from another SSRC, dropped.
        public var foreignPackets = 0
        /// Payloads the depacketizer refused.
        public var malformedPayloads = 0
        /// Frames handed on.
        public var framesGood = 0
        /// Key frames handed on.
        public var keyFrames = 0
        /// Frames lost.
        public var framesLost = 0
        /// Frames withheld until a key frame.
        public var framesWithheld = 0
        /// NACK packets sent.
        public var nackPackets = 0
        /// PLIs sent.
        public var keyFrameRequests = 0
        /// Sender reports received.
        public var senderReports = 0
        /// Every count at zero.
        public init() {}
    }

    /// Counts for the whole receiver.
    public struct Statistics: Sendable, Hashable {
        /// Per track, by kind.
        public var tracks: [String: TrackStatistics] = [:]
        /// Datagrams that were not RTP.
        public var malformedPackets = 0
        /// Packets of a payload type nobody negotiated.
        public var unknownPayloadTypes = 0
        /// Every count at zero.
        public init() {}
    }

    private struct TrackState: Sendable {
        var track: Track
        var buffer: RTPNACKJitterBuffer
        var reception: ReceptionStatistics?
        var h264 = H264Depacketizer()
        var opus = OpusDepacketizer()
        var needsKeyFrame: Bool
        var lastKeyFrameRequest: Duration?
        var counts = TrackStatistics()
        var lastSenderReport: RTCPSenderReport?
    }

    /// The tracks taken.
    public let tracks: [Track]
    /// The bounds and timings.
    public let configuration: Configuration
    private var states: [TrackState]
    private var malformedPackets = 0
    private var unknownPayloadTypes = 0

    /// A receiver.
    /// - Parameters:
    ///   - tracks: the negotiated sections (one per kind).
    ///   - configuration: bounds and timings.
    public init(tracks: [Track], configuration: Configuration = Configuration()) {
        self.tracks = tracks
        self.configuration = configuration
        states = tracks.map { track in
            var state = TrackState(track: track, buffer: RTPNACKJitterBuffer(configuration: configuration.buffer), needsKeyFrame: track.kind == "video")
            state.h264 = H264Depacketizer(maximumAccessUnitSize: configuration.maximumAccessUnitSize, maximumNALUnitCount: 1024,
                                          withholdsUntilKeyFrame: true)
            return state
        }
    }

    /// A snapshot of the counters.
    public var statistics: Statistics {
        var result = Statistics()
        result.malformedPackets = malformedPackets
        result.unknownPayloadTypes = unknownPayloadTypes
        for state in states {
            var counts = state.counts
            counts.packets = state.buffer.statistics
            result.tracks[state.track.kind] = counts
        }
        return result
    }

    /// The last sender report of a track (its NTP and RTP times pair the track's clock with the sender's wall clock).
    /// - Parameter kind: `video` or `audio`.
    /// - Returns: the report, or `nil` before one arrived.
    public func lastSenderReport(of kind: String) -> RTCPSenderReport? {
        states.first { $0.track.kind == kind }?.lastSenderReport
    }

    /// Takes one unprotected RTP packet.
    /// - Parameters:
    ///   - datagram: the packet (the access units handed on keep views of it).
    ///   - now: its arrival time.
    ///   - emit: receives every frame completed, lost or withheld so far.
    public mutating func receive(_ datagram: ByteView, at now: Duration, _ emit: (Output) -> Void) {
        let parsed: RTPPacket
        do { parsed = try RTPPacket(parsing: datagram) } catch {
            malformedPackets += 1
            return
        }
        guard let index = states.firstIndex(where: { $0.track.payloadType == parsed.payloadType || $0.track.retransmissionPayloadType == parsed.payloadType })
        else {
            unknownPayloadTypes += 1
            return
        }
        var packet = parsed
        if parsed.payloadType != states[index].track.payloadType {
            // RFC 4588 §4: an rtx payload starts with the original sequence number; an empty one is padding (probing).
            guard let ssrc = states[index].counts.ssrc, let original = parsed.payload.getInteger(at: 0, as: UInt16.self),
                  let rest = parsed.payload.getView(in: 2..<parsed.payload.count), !rest.isEmpty else { return }
            states[index].counts.retransmissions += 1
            packet = RTPPacket(marker: parsed.marker, payloadType: states[index].track.payloadType, sequenceNumber: original,
                               timestamp: parsed.timestamp, ssrc: ssrc, payload: rest)
        } else {
            if states[index].counts.ssrc == nil {
                states[index].counts.ssrc = parsed.ssrc
                states[index].reception = ReceptionStatistics(ssrc: parsed.ssrc, clockRate: max(1, states[index].track.clockRate))
            }
            guard parsed.ssrc == states[index].counts.ssrc else {
                states[index].counts.foreignPackets += 1
                return
            }
            _ = states[index].reception?.record(sequenceNumber: parsed.sequenceNumber, timestamp: parsed.timestamp, arrival: now)
        }
        states[index].buffer.insert(packet, at: now)
        release(index, at: now, emit)
    }

    /// Releases what has waited long enough for its holes (call it every few tens of milliseconds).
    /// - Parameters:
    ///   - now: the time.
    ///   - emit: receives the frames.
    public mutating func advance(to now: Duration, _ emit: (Output) -> Void) {
        for index in states.indices { release(index, at: now, emit) }
    }

    /// Ends the stream: everything held is released and the frames in progress handed on or reported.
    /// - Parameter emit: receives the frames.
    public mutating func finish(_ emit: (Output) -> Void) {
        for index in states.indices {
            for output in states[index].buffer.drain() { take(output, index: index, at: .zero, emit) }
            if states[index].track.kind == "video" {
                var events: [RTPFrameEvent<RTPAccessUnit>] = []
                states[index].h264.flush { events.append($0) }
                for event in events { handle(event, index: index, at: .zero, emit) }
            }
        }
    }

    /// Takes an unprotected RTCP compound packet from the sender: its sender reports (for the receiver reports'
    /// LSR and DLSR, RFC 3550 §6.4.1, and for lip sync).
    /// - Parameters:
    ///   - compound: the packet.
    ///   - now: its arrival time.
    public mutating func receiveControl(_ compound: RTCPCompoundPacket, at now: Duration) {
        for report in compound.senderReports {
            guard let index = states.firstIndex(where: { $0.counts.ssrc == report.ssrc }) else { continue }
            states[index].reception?.recordSenderReport(report, arrival: now)
            states[index].lastSenderReport = report
            states[index].counts.senderReports += 1
        }
    }

    /// The feedback due now: a generic NACK per track with holes to ask for, and a PLI for video that needs a key
    /// frame (none has arrived, or a picture could not be completed) when the last was at least
    /// ``Configuration/keyFrameRequestInterval`` ago.
    /// - Parameters:
    ///   - now: the time.
    ///   - senderSSRC: our SSRC, the feedback's sender.
    /// - Returns: the RTCP packets (empty when nothing is due).
    public mutating func feedback(at now: Duration, senderSSRC: UInt32) -> [RTCPPacket] {
        var packets: [RTCPPacket] = []
        for index in states.indices {
            guard let ssrc = states[index].counts.ssrc else { continue }
            if states[index].track.sendsNACK {
                let lost = states[index].buffer.requests(at: now)
                if !lost.isEmpty {
                    packets.append(.genericNACK(RTCPGenericNACK(senderSSRC: senderSSRC, mediaSSRC: ssrc, lostSequenceNumbers: lost)))
                    states[index].counts.nackPackets += 1
                }
            }
            if states[index].needsKeyFrame {
                if let last = states[index].lastKeyFrameRequest, now - last < configuration.keyFrameRequestInterval { continue }
                states[index].lastKeyFrameRequest = now
                states[index].counts.keyFrameRequests += 1
                packets.append(.pictureLossIndication(senderSSRC: senderSSRC, mediaSSRC: ssrc))
            }
        }
        return packets
    }

    /// A receiver report (RFC 3550 §6.4.2) with a block per track that has received, and SDES CNAME.
    /// - Parameters:
    ///   - now: the time.
    ///   - senderSSRC: our SSRC.
    ///   - canonicalName: our CNAME.
    /// - Returns: the compound packet, or `nil` before anything arrived.
    public mutating func receiverReport(at now: Duration, senderSSRC: UInt32, canonicalName: String = "streamkit") -> RTCPCompoundPacket? {
        var blocks: [RTCPReportBlock] = []
        for index in states.indices {
            if let block = states[index].reception?.makeReportBlock(at: now) { blocks.append(block) }
        }
        guard !blocks.isEmpty else { return nil }
        return RTCPCompoundPacket([.receiverReport(RTCPReceiverReport(ssrc: senderSSRC, reportBlocks: blocks)),
                                   .sourceDescription(RTCPSourceDescription(ssrc: senderSSRC, canonicalName: canonicalName))])
    }

    private mutating func release(_ index: Int, at now: Duration, _ emit: (Output) -> Void) {
        while let output = states[index].buffer.next(at: now) { take(output, index: index, at: now, emit) }
    }

    private mutating func take(_ output: RTPJitterBuffer.Output, index: Int, at now: Duration, _ emit: (Output) -> Void) {
        switch output {
        case let .lost(first, count):
            // Video: the depacketizer sees the jump in sequence numbers and reports the frame. Audio: each packet
            // was one Opus packet.
            guard states[index].track.kind == "audio" else { return }
            states[index].counts.framesLost += count
            emit(.lost(kind: "audio", .lost(RTPFrameLoss(timestamp: 0, firstSequenceNumber: first, lastSequenceNumber: first &+ UInt16(truncatingIfNeeded: count - 1),
                                                         reason: .packetsMissing(firstSequenceNumber: first, count: count)))))
        case let .packet(packet):
            if states[index].track.kind == "video" {
                var events: [RTPFrameEvent<RTPAccessUnit>] = []
                do { _ = try states[index].h264.depacketize(packet) { events.append($0) } } catch {
                    states[index].counts.malformedPayloads += 1
                }
                for event in events { handle(event, index: index, at: now, emit) }
            } else {
                var frames: [RTPAudioFrame] = []
                do {
                    _ = try states[index].opus.depacketize(packet) { event in
                        if case let .frame(frame) = event { frames.append(frame) }
                    }
                } catch {
                    states[index].counts.malformedPayloads += 1
                }
                for frame in frames {
                    states[index].counts.framesGood += 1
                    emit(.audio(frame, arrival: now))
                }
            }
        }
    }

    private mutating func handle(_ event: RTPFrameEvent<RTPAccessUnit>, index: Int, at now: Duration, _ emit: (Output) -> Void) {
        switch event {
        case let .frame(unit):
            states[index].counts.framesGood += 1
            if unit.isRandomAccess {
                states[index].counts.keyFrames += 1
                states[index].needsKeyFrame = false
            }
            emit(.video(unit, arrival: now))
        case .lost:
            states[index].counts.framesLost += 1
            states[index].needsKeyFrame = true
            emit(.lost(kind: "video", event))
        case .withheld:
            states[index].counts.framesWithheld += 1
            states[index].needsKeyFrame = true
            emit(.lost(kind: "video", event))
        }
    }
}

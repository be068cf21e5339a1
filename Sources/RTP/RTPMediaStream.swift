import Bitstream
import MediaCore

/// The sending side of one RTP stream (one SSRC): encoded frames in, RTP packets out, and the RTCP a sender
/// owes its receivers (RFC 3550 §6).
///
/// Video goes through ``H264Packetizer`` (RFC 6184) or ``H265Packetizer`` (RFC 7798), AAC through
/// ``AACPacketizer`` (RFC 3640). The stream counts the packets and payload octets it sent (the SR's sender's
/// packet and octet counts, RFC 3550 §6.4.1) and maps media time onto the NTP wallclock: media time zero is
/// `referenceTime`, so the SR taken at a frame's time pairs that frame's RTP timestamp with its wallclock
/// instant — the pair a receiver needs to put audio and video on one clock (RFC 3550 §6.4.1, ``MediaClock``).
///
/// Packets are handed out as views valid during the call (no allocation per packet).
///
/// ```swift
/// var stream = try RTPMediaStream(video: frame.format, referenceTime: NTPTimestamp(unixSeconds: 1_700_000_000, nanoseconds: 0))
/// try stream.send(frame) { packet in socket.send(packet) }
/// if let report = try stream.reportIfDue(at: frame.pts) { socket.send(report, to: rtcpPort) }
/// ```
public struct RTPMediaStream: Sendable {
    // One of the three is set; each is mutated in place (optional chaining), so its packet buffer is never
    // copied on write.
    private var h264: H264Packetizer?
    private var h265: H265Packetizer?
    private var aac: AACPacketizer?
    private var opus: OpusPacketizer?
    /// The synchronisation source identifier of every packet and report of this stream.
    public let ssrc: UInt32
    /// The random offset added to every RTP timestamp (RFC 3550 §5.1).
    public let timestampOffset: UInt32
    /// The RTP clock rate in Hz: 90000 for video (RFC 6184 §8.2.1, RFC 7798 §7.1), the sample rate for AAC
    /// (RFC 3640 §4.1).
    public let clockRate: Int
    /// The NTP wallclock time of media time zero.
    public let referenceTime: NTPTimestamp
    /// The canonical name sent in SDES (RFC 3550 §6.5.1), e.g. `user@host`.
    public let canonicalName: String
    /// The shortest media time between two reports from ``reportIfDue(at:)`` (RFC 3550 §6.2 suggests 5 s at
    /// the least for large sessions; one second suits a unicast camera).
    public var reportInterval: MediaTime
    /// RTP packets sent so far (the SR's sender's packet count, modulo 2^32).
    public private(set) var packetCount: UInt32 = 0
    /// Payload octets sent so far, headers excluded (the SR's sender's octet count, modulo 2^32).
    public private(set) var octetCount: UInt32 = 0
    /// The presentation time of the latest frame sent.
    public private(set) var lastMediaTime: MediaTime?
    private var lastReport: MediaTime?

    /// A video stream: H.264 or H.265 after the format's codec.
    /// - Parameters:
    ///   - format: the video format (its parameter sets go in-band before IDRs).
    ///   - maximumPacketSize: the largest RTP packet, header included.
    ///   - state: payload type, SSRC, first sequence number and timestamp offset; random by default (RFC 3550 §5.1).
    ///   - referenceTime: the NTP wallclock time of media time zero.
    ///   - canonicalName: the SDES CNAME.
    /// - Throws: ``RTPPacketizerError/packetSizeTooSmall(maximumPacketSize:minimum:)``.
    public init(video format: FormatDescription, maximumPacketSize: Int = 1200,
                state: RTPSenderState = RTPSenderState(payloadType: 96), referenceTime: NTPTimestamp,
                canonicalName: String = "streamkit") throws(RTPPacketizerError) {
        switch format.codec {
        case .hevc:
            h265 = try H265Packetizer(parameterSets: format.parameterSets, maximumPacketSize: maximumPacketSize, state: state)
        default:
            h264 = try H264Packetizer(parameterSets: format.parameterSets, maximumPacketSize: maximumPacketSize, state: state)
        }
        ssrc = state.ssrc
        timestampOffset = state.timestampOffset
        clockRate = 90_000
        self.referenceTime = referenceTime
        self.canonicalName = canonicalName
        reportInterval = MediaTime(value: 1, timescale: 1)
    }

    /// An AAC stream (RFC 3640 AAC-hbr), or an Opus stream (RFC 7587: one packet per frame, 48 kHz clock).
    /// - Parameters:
    ///   - format: the audio format (its sample rate is the RTP clock).
    ///   - maximumPacketSize: the largest RTP packet, header included.
    ///   - state: payload type, SSRC, first sequence number and timestamp offset; random by default (RFC 3550 §5.1).
    ///   - referenceTime: the NTP wallclock time of media time zero.
    ///   - canonicalName: the SDES CNAME.
    /// - Throws: ``RTPPacketizerError/packetSizeTooSmall(maximumPacketSize:minimum:)``.
    public init(audio format: AudioFormatDescription, maximumPacketSize: Int = 1200,
                state: RTPSenderState = RTPSenderState(payloadType: 97), referenceTime: NTPTimestamp,
                canonicalName: String = "streamkit") throws(RTPPacketizerError) {
        if format.codec == .opus {
            opus = try OpusPacketizer(maximumPacketSize: maximumPacketSize, state: state)
            clockRate = OpusPacketizer.clockRate
        } else {
            aac = try AACPacketizer(samplesPerFrame: format.samplesPerFrame, maximumPacketSize: maximumPacketSize, state: state)
            clockRate = max(1, format.sampleRate)
        }
        ssrc = state.ssrc
        timestampOffset = state.timestampOffset
        self.referenceTime = referenceTime
        self.canonicalName = canonicalName
        reportInterval = MediaTime(value: 1, timescale: 1)
    }

    /// Whether this stream carries video.
    public var isVideo: Bool { aac == nil && opus == nil }

    /// Sends one video access unit: its RTP packets in order, the last with the marker bit.
    /// - Parameters:
    ///   - frame: the frame, as a compression session hands it out.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/streamKindMismatch`` on an audio stream,
    ///   ``RTPPacketizerError/malformedAccessUnit(byteOffset:reason:)``, or what `body` throws.
    public mutating func send(
        _ frame: EncodedFrame, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        var packets: UInt32 = 0
        var octets: UInt32 = 0
        if h264 != nil {
            try h264?.packetize(frame) { packet throws(RTPPacketizerError) in
                Self.count(packet, packets: &packets, octets: &octets)
                try body(packet)
            }
        } else if h265 != nil {
            try h265?.packetize(frame) { packet throws(RTPPacketizerError) in
                Self.count(packet, packets: &packets, octets: &octets)
                try body(packet)
            }
        } else {
            throw .streamKindMismatch
        }
        record(packets: packets, octets: octets, at: frame.pts)
    }

    /// Sends one AAC access unit or one Opus packet (RFC 7587 §4.2: one RTP packet each). AAC units share a packet
    /// only when given together to ``AACPacketizer``; here each frame is one packet or, when larger than a packet,
    /// a fragmented AU (RFC 3640 §3.2.3).
    /// - Parameters:
    ///   - frame: the frame, as an audio encoder session hands it out.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/streamKindMismatch`` on a video stream,
    ///   ``RTPPacketizerError/accessUnitTooLarge(size:maximum:)``, or what `body` throws.
    public mutating func send(
        _ frame: EncodedAudioFrame, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        guard aac != nil || opus != nil else { throw .streamKindMismatch }
        var packets: UInt32 = 0
        var octets: UInt32 = 0
        try aac?.packetize(frame) { packet throws(RTPPacketizerError) in
            Self.count(packet, packets: &packets, octets: &octets)
            try body(packet)
        }
        try opus?.packetize(frame) { packet throws(RTPPacketizerError) in
            Self.count(packet, packets: &packets, octets: &octets)
            try body(packet)
        }
        record(packets: packets, octets: octets, at: frame.pts)
    }

    /// Counts one packet: its payload octets are all but the fixed header (no CSRCs, no padding here).
    @inline(__always)
    private static func count(_ packet: UnsafeRawBufferPointer, packets: inout UInt32, octets: inout UInt32) {
        packets &+= 1
        octets &+= UInt32(truncatingIfNeeded: max(0, packet.count - RTPPacket.fixedHeaderSize))
    }

    private mutating func record(packets: UInt32, octets: UInt32, at time: MediaTime) {
        packetCount &+= packets
        octetCount &+= octets
        lastMediaTime = time
    }

    /// The RTP timestamp of a media time: the time in the stream's clock plus the random offset, modulo 2^32
    /// (RFC 3550 §5.1) — what the packets of a frame at that time carry.
    /// - Parameter time: a presentation time.
    /// - Returns: the RTP timestamp.
    public func rtpTimestamp(at time: MediaTime) -> UInt32 {
        timestampOffset &+ UInt32(truncatingIfNeeded: time.converted(to: Int32(clamping: clockRate)).value)
    }

    /// The NTP wallclock time of a media time: ``referenceTime`` plus the time.
    /// - Parameter time: a presentation time.
    /// - Returns: its wallclock instant.
    public func ntpTime(at time: MediaTime) -> NTPTimestamp {
        // Seconds as 32.32 fixed point, through a 2^32 timescale conversion of the exact rational time.
        let timescale = Int64(max(1, time.timescale))
        let whole = time.value / timescale
        let remainder = time.value - whole * timescale
        let fixed = (whole << 32) &+ (remainder << 32) / timescale
        return NTPTimestamp(rawValue: referenceTime.rawValue &+ UInt64(bitPattern: fixed))
    }

    /// The sender report of this stream at a media time (RFC 3550 §6.4.1): the NTP time and RTP timestamp of
    /// that instant, and the packet and octet counts so far.
    /// - Parameter time: the instant reported (normally the latest frame's presentation time).
    /// - Returns: the SR, without report blocks (this sender receives nothing).
    public func senderReport(at time: MediaTime) -> RTCPSenderReport {
        RTCPSenderReport(ssrc: ssrc, ntpTimestamp: ntpTime(at: time), rtpTimestamp: rtpTimestamp(at: time),
                         packetCount: packetCount, octetCount: octetCount)
    }

    /// The compound RTCP packet a sender sends regularly (RFC 3550 §6.1): SR, then SDES with the CNAME.
    /// - Parameter time: the instant reported.
    /// - Returns: the serialized compound packet.
    /// - Throws: ``RTCPError`` for a CNAME longer than 255 bytes.
    public func reportPacket(at time: MediaTime) throws(RTCPError) -> [UInt8] {
        try RTCPCompoundPacket([
            .senderReport(senderReport(at: time)),
            .sourceDescription(RTCPSourceDescription(ssrc: ssrc, canonicalName: canonicalName)),
        ]).serialized()
    }

    /// The report packet when ``reportInterval`` has passed in media time since the previous one (the first
    /// call always reports), else `nil`.
    /// - Parameter time: the current media time (the frame just sent).
    /// - Returns: SR + SDES (``reportPacket(at:)``), or `nil` when not due.
    /// - Throws: ``RTCPError`` for a CNAME longer than 255 bytes.
    public mutating func reportIfDue(at time: MediaTime) throws(RTCPError) -> [UInt8]? {
        if let lastReport, time - lastReport < reportInterval { return nil }
        lastReport = time
        return try reportPacket(at: time)
    }

    /// The compound packet that ends the stream (RFC 3550 §6.6): SR at the latest frame's time (or an empty
    /// RR before any frame), SDES CNAME, BYE — a BYE must still follow a report in its compound (§6.1).
    /// - Parameter reason: the reason text in the BYE.
    /// - Returns: the serialized compound packet.
    /// - Throws: ``RTCPError`` for a CNAME or reason longer than 255 bytes.
    public func goodbyePacket(reason: String? = "end of stream") throws(RTCPError) -> [UInt8] {
        let report: RTCPPacket = lastMediaTime.map { .senderReport(senderReport(at: $0)) }
            ?? .receiverReport(RTCPReceiverReport(ssrc: ssrc))
        return try RTCPCompoundPacket([
            report,
            .sourceDescription(RTCPSourceDescription(ssrc: ssrc, canonicalName: canonicalName)),
            .goodbye(RTCPGoodbye(ssrcs: [ssrc], reason: reason)),
        ]).serialized()
    }
}

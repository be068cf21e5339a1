import Bitstream

/// The receiving end of an AAC RTP stream (RFC 3640 `mpeg4-generic`, AAC-hbr) in one value: packets in, raw AAC
/// access units and the report of every one that could not be rebuilt out. It chains an ``RTPJitterBuffer``
/// (reordering, duplicates, gaps: RFC 3550 §A.1 sequence arithmetic) and an ``AACDepacketizer`` (the AU-header
/// section of RFC 3640 §3.2.1, several access units per packet, fragments of one large unit by §3.2.3.1) — what
/// ``RTPVideoReceiver`` is for H.264 and H.265.
///
/// Audio frames are independent of each other: a loss costs only the units it cut, nothing is withheld.
///
/// ```swift
/// var receiver = try RTPAudioReceiver(parameters: sdpParameters)
/// receiver.receive(packet) { event in
///     if case .frame(let frame) = event { adts.write(frame.data) }
/// }
/// ```
public struct RTPAudioReceiver: Sendable {
    /// Counts of what the receiver saw.
    public struct Statistics: Sendable, Hashable {
        /// What the jitter buffer saw: received, duplicates, reordered, late, lost packets.
        public var packets = RTPJitterBuffer.Statistics()
        /// Packets whose AU-header section was malformed (``RTPPayloadError``), dropped.
        public var malformedPayloads = 0
        /// Access units handed on.
        public var framesGood = 0
        /// Access units reported lost (a fragmented unit cut by a gap, or a malformed packet's units).
        public var framesLost = 0
    }

    private var jitterBuffer: RTPJitterBuffer
    private var depacketizer: AACDepacketizer
    private var counts = Statistics()
    /// The last payload error, for logs.
    public private(set) var lastPayloadError: RTPPayloadError?

    /// A receiver with explicit AU-header field sizes.
    /// - Parameters:
    ///   - sizeLength: the SDP's `sizelength` (13 for AAC-hbr, RFC 3640 §3.3.6).
    ///   - indexLength: the SDP's `indexlength` (3).
    ///   - indexDeltaLength: the SDP's `indexdeltalength` (3).
    ///   - samplesPerFrame: samples per access unit (1024 for AAC-LC).
    ///   - reorderWindow: how many packets may overtake a missing one before it is given up.
    /// - Throws: ``RTPPayloadError/malformedAUHeaders(sequenceNumber:reason:)`` when a length is out of range.
    public init(sizeLength: Int = 13, indexLength: Int = 3, indexDeltaLength: Int = 3, samplesPerFrame: Int = 1024,
                reorderWindow: Int = 64) throws(RTPPayloadError) {
        jitterBuffer = RTPJitterBuffer(reorderWindow: reorderWindow)
        depacketizer = try AACDepacketizer(sizeLength: sizeLength, indexLength: indexLength, indexDeltaLength: indexDeltaLength,
                                           samplesPerFrame: samplesPerFrame)
    }

    /// A receiver for the `fmtp` parameters of an SDP media section (RFC 3640 §4.1).
    /// - Parameters:
    ///   - parameters: the section's `mpeg4-generic` parameters.
    ///   - samplesPerFrame: samples per access unit (1024 for AAC-LC).
    ///   - reorderWindow: how many packets may overtake a missing one before it is given up.
    /// - Throws: ``RTPPayloadError/malformedAUHeaders(sequenceNumber:reason:)`` when a length is out of range.
    public init(parameters: SDPMPEG4GenericParameters, samplesPerFrame: Int = 1024, reorderWindow: Int = 64) throws(RTPPayloadError) {
        try self.init(sizeLength: parameters.sizeLength, indexLength: parameters.indexLength,
                      indexDeltaLength: parameters.indexDeltaLength, samplesPerFrame: samplesPerFrame, reorderWindow: reorderWindow)
    }

    /// What the receiver saw so far.
    public var statistics: Statistics {
        var result = counts
        result.packets = jitterBuffer.statistics
        return result
    }

    /// Takes one datagram, parsing its RTP header (RFC 3550 §5.1).
    /// - Parameters:
    ///   - datagram: the bytes as they arrived; the frames handed on keep views of them.
    ///   - emit: receives every access unit completed or lost so far.
    /// - Throws: ``RTPError`` when the datagram is not an RTP packet (it is dropped; the stream goes on).
    public mutating func receive(_ datagram: ByteView, _ emit: (RTPFrameEvent<RTPAudioFrame>) -> Void) throws(RTPError) {
        receive(try RTPPacket(parsing: datagram), emit)
    }

    /// Takes one packet already parsed (by an ``RTPSessionReceiver``, which parses each datagram once).
    /// - Parameters:
    ///   - packet: the packet.
    ///   - emit: receives every access unit completed or lost so far.
    public mutating func receive(_ packet: RTPPacket, _ emit: (RTPFrameEvent<RTPAudioFrame>) -> Void) {
        jitterBuffer.insert(packet)
        while let output = jitterBuffer.next() { take(output, emit) }
    }

    /// Ends the stream: every packet still held is released and depacketized.
    /// - Parameter emit: receives the frames.
    public mutating func finish(_ emit: (RTPFrameEvent<RTPAudioFrame>) -> Void) {
        for output in jitterBuffer.drain() { take(output, emit) }
    }

    private mutating func take(_ output: RTPJitterBuffer.Output, _ emit: (RTPFrameEvent<RTPAudioFrame>) -> Void) {
        guard case .packet(let packet) = output else { return }
        var events: [RTPFrameEvent<RTPAudioFrame>] = []
        do {
            _ = try depacketizer.depacketize(packet) { events.append($0) }
        } catch {
            counts.malformedPayloads += 1
            counts.framesLost += 1
            lastPayloadError = error
            emit(.lost(RTPFrameLoss(timestamp: packet.timestamp, firstSequenceNumber: packet.sequenceNumber,
                                    lastSequenceNumber: packet.sequenceNumber, reason: .malformedPacket(error))))
        }
        for event in events {
            switch event {
            case .frame: counts.framesGood += 1
            case .lost, .withheld: counts.framesLost += 1
            }
            emit(event)
        }
    }
}

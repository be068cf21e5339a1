import Bitstream

/// The receiving end of an H.264 or H.265 RTP stream in one value: datagrams in, whole access units and the
/// report of every frame that could not be handed on out. It chains an ``RTPJitterBuffer`` (reordering,
/// duplicates, gaps) and the codec's depacketizer (``H264Depacketizer`` / ``H265Depacketizer``), so frames after
/// a loss are withheld until the next key frame.
///
/// ```swift
/// var receiver = RTPVideoReceiver(codec: .h264)
/// try receiver.receive(ByteView(datagram)) { event in
///     switch event {
///     case .frame(let accessUnit): output.write(accessUnit.annexB)
///     case .lost(let loss), .withheld(let loss): print(loss)
///     }
/// }
/// ```
public struct RTPVideoReceiver: Sendable {
    /// The payload format of the stream.
    public enum Codec: Sendable, Hashable {
        /// H.264, RFC 6184 (packetization-mode 0 or 1).
        case h264
        /// H.265, RFC 7798 without DONL.
        case h265
    }

    /// Counts of what the receiver saw.
    public struct Statistics: Sendable, Hashable {
        /// What the jitter buffer saw: received, duplicates, reordered, late, lost packets.
        public var packets = RTPJitterBuffer.Statistics()
        /// Datagrams that were not RTP packets (``RTPError``), dropped.
        public var malformedPackets = 0
        /// Packets whose payload was malformed or unsupported (``RTPPayloadError``).
        public var malformedPayloads = 0
        /// Frames handed on.
        public var framesGood = 0
        /// Frames reported lost.
        public var framesLost = 0
        /// Frames withheld until a key frame.
        public var framesWithheld = 0
    }

    private var jitterBuffer: RTPJitterBuffer
    private var depacketizer: NALUnitDepacketizer
    private var counts = Statistics()
    /// The last payload error, for logs.
    public private(set) var lastPayloadError: RTPPayloadError?

    /// A receiver.
    /// - Parameters:
    ///   - codec: H.264 or H.265.
    ///   - reorderWindow: how many packets may overtake a missing one before it is given up.
    ///   - maximumAccessUnitSize: the largest access unit in bytes.
    ///   - maximumNALUnitCount: the most NAL units in one access unit.
    public init(codec: Codec, reorderWindow: Int = 64, maximumAccessUnitSize: Int = 8 << 20,
                maximumNALUnitCount: Int = 1024) {
        jitterBuffer = RTPJitterBuffer(reorderWindow: reorderWindow)
        depacketizer = NALUnitDepacketizer(format: codec == .h264 ? .h264 : .h265,
                                           maximumAccessUnitSize: maximumAccessUnitSize,
                                           maximumNALUnitCount: maximumNALUnitCount, withholdsUntilKeyFrame: true)
    }

    /// What the receiver saw so far.
    public var statistics: Statistics {
        var result = counts
        result.packets = jitterBuffer.statistics
        return result
    }

    /// Takes one datagram (or one interleaved RTP packet).
    /// - Parameters:
    ///   - datagram: the bytes as they arrived; the access units handed on keep views of them.
    ///   - emit: receives every frame completed, lost or withheld so far.
    /// - Throws: ``RTPError`` when the datagram is not an RTP packet (it is dropped; the stream goes on).
    public mutating func receive(_ datagram: ByteView, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) throws(RTPError) {
        let packet: RTPPacket
        do {
            packet = try RTPPacket(parsing: datagram)
        } catch {
            counts.malformedPackets += 1
            throw error
        }
        receive(packet, emit)
    }

    /// Takes one packet already parsed — by an ``RTPSessionReceiver``, which parses each datagram once for its
    /// statistics and hands the same value on here (RFC 3550 §5.1 header, then RFC 6184 §5.2 / RFC 7798 §4.4
    /// payload), so nothing is parsed twice.
    /// - Parameters:
    ///   - packet: the packet; the access units handed on keep views of its payload.
    ///   - emit: receives every frame completed, lost or withheld so far.
    public mutating func receive(_ packet: RTPPacket, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        jitterBuffer.insert(packet)
        while let output = jitterBuffer.next() { take(output, emit) }
    }

    /// Ends the stream: everything still held is released and the last access unit handed on or reported.
    /// - Parameter emit: receives the frames.
    public mutating func finish(_ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        for output in jitterBuffer.drain() { take(output, emit) }
        var events: [RTPFrameEvent<RTPAccessUnit>] = []
        depacketizer.flush { events.append($0) }
        for event in events { count(event, emit) }
    }

    private mutating func take(_ output: RTPJitterBuffer.Output, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        // A gap needs no action here: the depacketizer sees the jump in sequence numbers.
        guard case .packet(let packet) = output else { return }
        var events: [RTPFrameEvent<RTPAccessUnit>] = []
        do {
            _ = try depacketizer.depacketize(packet) { events.append($0) }
        } catch {
            counts.malformedPayloads += 1
            lastPayloadError = error
        }
        for event in events { count(event, emit) }
    }

    private mutating func count(_ event: RTPFrameEvent<RTPAccessUnit>, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        switch event {
        case .frame: counts.framesGood += 1
        case .lost: counts.framesLost += 1
        case .withheld: counts.framesWithheld += 1
        }
        emit(event)
    }
}

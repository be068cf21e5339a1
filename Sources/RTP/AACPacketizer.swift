import Bitstream
import MediaCore

/// Turns AAC access units into RTP packets, RFC 3640 mpeg4-generic in AAC-hbr mode (sizelength 13, indexlength
/// 3, indexdeltalength 3): several access units per packet while they fit (§3.2.3, index deltas of 0 — the
/// units are consecutive), an access unit larger than the packet fragmented over several packets that each
/// carry its full size in one AU header (§3.2.3.1), the marker bit on every packet that ends an access unit.
/// The timestamp of a packet is the sample time of its first access unit (§3.2.1), in the sample rate's clock.
///
/// ```swift
/// var packetizer = try AACPacketizer(samplesPerFrame: 1024)
/// packetizer.packetize(accessUnits: [frame1, frame2], timestamp: 0) { packet in socket.send(packet) }
/// ```
public struct AACPacketizer: Sendable {
    /// The 13-bit AU-size field's largest value.
    public static let maximumAccessUnitSize = 8191

    /// Sequence number, SSRC, timestamp offset, payload type.
    public private(set) var state: RTPSenderState
    /// The largest RTP packet written (header included).
    public let maximumPacketSize: Int
    /// The number of samples per access unit (1024 for AAC-LC): the timestamp step between access units.
    public let samplesPerFrame: Int

    /// A packetizer.
    /// - Parameters:
    ///   - samplesPerFrame: samples per access unit (1024 for AAC-LC).
    ///   - maximumPacketSize: the largest RTP packet (header included).
    ///   - state: payload type, SSRC, first sequence number and timestamp offset; random by default.
    /// - Throws: ``RTPPacketizerError/packetSizeTooSmall(maximumPacketSize:minimum:)``.
    public init(samplesPerFrame: Int = 1024, maximumPacketSize: Int = 1200,
                state: RTPSenderState = RTPSenderState(payloadType: 97)) throws(RTPPacketizerError) {
        let minimum = RTPPacket.fixedHeaderSize + 4 + 1
        guard maximumPacketSize >= minimum else {
            throw .packetSizeTooSmall(maximumPacketSize: maximumPacketSize, minimum: minimum)
        }
        self.state = state
        self.maximumPacketSize = maximumPacketSize
        self.samplesPerFrame = samplesPerFrame
    }

    /// Packetizes consecutive access units.
    /// - Parameters:
    ///   - accessUnits: raw AAC frames (no ADTS header), consecutive in time.
    ///   - timestamp: the sample time of the first, in the sample rate's clock; the offset is added.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/accessUnitTooLarge(size:maximum:)`` for a unit over 8191 bytes (before
    ///   anything is sent), or what `body` throws.
    public mutating func packetize(
        accessUnits: [ByteView], timestamp: UInt32, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        for unit in accessUnits where unit.count > Self.maximumAccessUnitSize {
            throw .accessUnitTooLarge(size: unit.count, maximum: Self.maximumAccessUnitSize)
        }
        let maxPayload = maximumPacketSize - RTPPacket.fixedHeaderSize
        let step = UInt32(truncatingIfNeeded: samplesPerFrame)
        let packetSize = maximumPacketSize
        try withUnsafeTemporaryAllocation(byteCount: packetSize, alignment: 16) {
            (buffer) throws(RTPPacketizerError) -> Void in
            guard let base = buffer.baseAddress else { return }
            var index = 0
            while index < accessUnits.count {
                let unitTimestamp = timestamp &+ state.timestampOffset &+ UInt32(truncatingIfNeeded: index) &* step
                // As many whole units as fit: 2 bytes of headers-length, 2 per AU header, the data.
                var end = index
                var size = 2
                while end < accessUnits.count, size + 2 + accessUnits[end].count <= maxPayload {
                    size += 2 + accessUnits[end].count
                    end += 1
                }
                if end > index {
                    let count = end - index
                    var offset = writeHeader(at: base, marker: true, timestamp: unitTimestamp)
                    RTPHeaderWriter.storeBigEndian(UInt16(16 * count), at: base + offset)
                    offset += 2
                    for unit in accessUnits[index..<end] {
                        RTPHeaderWriter.storeBigEndian(UInt16(unit.count) << 3, at: base + offset)
                        offset += 2
                    }
                    for unit in accessUnits[index..<end] {
                        Self.copy(unit, from: 0, count: unit.count, to: base + offset)
                        offset += unit.count
                    }
                    try body(UnsafeRawBufferPointer(start: base, count: offset))
                    index = end
                    continue
                }
                // One unit larger than the packet: fragments, each with the whole unit's size.
                let unit = accessUnits[index]
                let chunk = maxPayload - 4
                var start = 0
                while start < unit.count {
                    let length = min(chunk, unit.count - start)
                    var offset = writeHeader(at: base, marker: start + length == unit.count, timestamp: unitTimestamp)
                    RTPHeaderWriter.storeBigEndian(UInt16(16), at: base + offset)
                    RTPHeaderWriter.storeBigEndian(UInt16(unit.count) << 3, at: base + offset + 2)
                    offset += 4
                    Self.copy(unit, from: start, count: length, to: base + offset)
                    try body(UnsafeRawBufferPointer(start: base, count: offset + length))
                    start += length
                }
                index += 1
            }
        }
    }

    /// Packetizes one encoded audio frame at its presentation time (in its sample rate's clock).
    /// - Parameters:
    ///   - frame: the frame.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/accessUnitTooLarge(size:maximum:)``, or what `body` throws.
    public mutating func packetize(
        _ frame: EncodedAudioFrame, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        let clock = Int32(clamping: frame.format.sampleRate)
        let time = UInt32(truncatingIfNeeded: frame.pts.converted(to: clock).value)
        try packetize(accessUnits: [ByteView(frame.data)], timestamp: time, body)
    }

    @inline(__always)
    private mutating func writeHeader(at base: UnsafeMutableRawPointer, marker: Bool, timestamp: UInt32) -> Int {
        RTPHeaderWriter.writeFixedHeader(at: base, first: 0x80, marker: marker, payloadType: state.payloadType,
                                         sequenceNumber: state.takeSequenceNumber(), timestamp: timestamp,
                                         ssrc: state.ssrc)
        return RTPPacket.fixedHeaderSize
    }

    @inline(__always)
    private static func copy(_ view: ByteView, from start: Int, count: Int, to destination: UnsafeMutableRawPointer) {
        view.withUnsafeBytes { bytes in
            if count > 0, let source = bytes.baseAddress { destination.copyMemory(from: source + start, byteCount: count) }
        }
    }
}

import Bitstream

/// A generic NACK (RFC 4585 §6.2.1): transport-layer feedback (packet type 205, FMT 1) naming the RTP
/// sequence numbers a receiver lost, so that the sender may retransmit them.
public struct RTCPGenericNACK: Sendable, Hashable {
    /// The RTCP packet type of transport-layer feedback (RTPFB).
    public static let packetType: UInt8 = 205
    /// The feedback message type of the generic NACK.
    public static let formatType: UInt8 = 1

    /// One FCI entry: a lost packet ID and a bitmask of the 16 following packets also lost.
    public struct Entry: Sendable, Hashable {
        /// PID: a lost sequence number.
        public var packetID: UInt16
        /// BLP: bit i set means `packetID + i + 1` is lost too.
        public var lostBitmask: UInt16

        /// Creates an entry.
        /// - Parameters:
        ///   - packetID: the lost sequence number.
        ///   - lostBitmask: the following losses.
        public init(packetID: UInt16, lostBitmask: UInt16) {
            self.packetID = packetID
            self.lostBitmask = lostBitmask
        }
    }

    /// The SSRC of the packet's sender.
    public var senderSSRC: UInt32
    /// The SSRC of the media source the feedback is about.
    public var mediaSSRC: UInt32
    /// The FCI entries.
    public var entries: [Entry]

    /// Creates a NACK.
    /// - Parameters:
    ///   - senderSSRC: the reporter.
    ///   - mediaSSRC: the media source.
    ///   - entries: the FCI entries.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.entries = entries
    }

    /// A NACK for `lostSequenceNumbers`, packed into as few entries as the PID/BLP form allows (in the
    /// order given; each run of 17 numbers starting at a PID shares one entry).
    /// - Parameters:
    ///   - senderSSRC: the reporter.
    ///   - mediaSSRC: the media source.
    ///   - lostSequenceNumbers: the lost sequence numbers.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, lostSequenceNumbers: [UInt16]) {
        var entries: [Entry] = []
        for number in lostSequenceNumbers {
            if let last = entries.last {
                let distance = number &- last.packetID
                if distance == 0 { continue }
                if distance <= 16 {
                    entries[entries.count - 1].lostBitmask |= 1 << (distance - 1)
                    continue
                }
            }
            entries.append(Entry(packetID: number, lostBitmask: 0))
        }
        self.init(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, entries: entries)
    }

    /// Every sequence number the entries name, in order.
    public var lostSequenceNumbers: [UInt16] {
        var numbers: [UInt16] = []
        for entry in entries {
            numbers.append(entry.packetID)
            for bit in 0..<16 where entry.lostBitmask & (1 << bit) != 0 {
                numbers.append(entry.packetID &+ UInt16(bit + 1))
            }
        }
        return numbers
    }

    /// Reads the body: sender SSRC, media SSRC, then 4-byte FCI entries.
    init(body: ByteView, offset: Int) throws(RTCPError) {
        guard let sender = body.getInteger(at: 0, as: UInt32.self), let media = body.getInteger(at: 4, as: UInt32.self) else {
            throw .truncated(offset: offset, needed: 12, available: body.count + 4)
        }
        var entries: [Entry] = []
        entries.reserveCapacity((body.count - 8) / 4)
        var index = 8
        while let pid = body.getInteger(at: index, as: UInt16.self), let blp = body.getInteger(at: index + 2, as: UInt16.self) {
            entries.append(Entry(packetID: pid, lostBitmask: blp))
            index += 4
        }
        self.init(senderSSRC: sender, mediaSSRC: media, entries: entries)
    }

    func write(to writer: inout RTCPWriter) throws(RTCPError) {
        guard entries.count <= 16_000 else { throw .unrepresentable(field: "NACK entries", value: entries.count, limit: 16_000) }
        writer.packet(count: Int(Self.formatType), packetType: Self.packetType) { writer in
            writer.append(senderSSRC)
            writer.append(mediaSSRC)
            for entry in entries {
                writer.append(entry.packetID)
                writer.append(entry.lostBitmask)
            }
        }
    }
}

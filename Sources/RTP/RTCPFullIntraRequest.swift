import Bitstream

/// A Full Intra Request (RFC 5104 §4.3.1): payload-specific feedback (packet type 206, FMT 4) by which a receiver asks
/// a media sender for a decoder refresh point — a key frame — now. Each FCI entry names the media sender it addresses
/// and a command sequence number, so that a repeated request can be told from a new one (§4.3.1.2).
public struct RTCPFullIntraRequest: Sendable, Hashable {
    /// The feedback message type of FIR within payload-specific feedback.
    public static let formatType: UInt8 = 4
    /// The most FCI entries read from one packet (a packet with more is cut there: nothing is lost but repeats).
    public static let maximumEntryCount = 64

    /// One FCI entry (RFC 5104 §4.3.1.1): the SSRC of the media sender asked, and the command sequence number.
    public struct Entry: Sendable, Hashable {
        /// The media sender that should send a key frame.
        public var ssrc: UInt32
        /// The command sequence number, increased by one for each new request (modulo 256).
        public var sequenceNumber: UInt8

        /// An entry.
        /// - Parameters:
        ///   - ssrc: the media sender asked.
        ///   - sequenceNumber: the command sequence number.
        public init(ssrc: UInt32, sequenceNumber: UInt8) {
            self.ssrc = ssrc
            self.sequenceNumber = sequenceNumber
        }
    }

    /// The SSRC of the request's sender.
    public var senderSSRC: UInt32
    /// The entries (the common header's media source SSRC is 0 for FIR, RFC 5104 §4.3.1.2, and not kept).
    public var entries: [Entry]

    /// A request.
    /// - Parameters:
    ///   - senderSSRC: the requester.
    ///   - entries: one entry per media sender asked.
    public init(senderSSRC: UInt32, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.entries = entries
    }

    /// Reads the body of a PSFB packet with FMT 4 (RFC 5104 §4.3.1.1): sender SSRC, media source SSRC (unused), then
    /// 8-byte entries of SSRC, sequence number and 24 reserved bits. A trailing part shorter than an entry is ignored.
    /// - Parameters:
    ///   - body: the packet's body after its 4-byte common header (padding removed).
    ///   - offset: the packet's offset in its compound packet, for the error.
    /// - Throws: ``RTCPError/truncated(offset:needed:available:)`` when the body has no room for the two SSRCs.
    public init(body: ByteView, offset: Int) throws(RTCPError) {
        guard let sender = body.getInteger(at: 0, as: UInt32.self), body.count >= 8 else {
            throw .truncated(offset: offset, needed: 12, available: body.count + 4)
        }
        var entries: [Entry] = []
        var index = 8
        while entries.count < Self.maximumEntryCount, let ssrc = body.getInteger(at: index, as: UInt32.self),
              let sequence = body.getByte(at: index + 4), body.count >= index + 8 {
            entries.append(Entry(ssrc: ssrc, sequenceNumber: sequence))
            index += 8
        }
        self.init(senderSSRC: sender, entries: entries)
    }

    /// The packet with its common header (RFC 5104 §4.3.1.1), media source SSRC 0.
    /// - Returns: the bytes.
    /// - Throws: ``RTCPError/unrepresentable(field:value:limit:)`` for more entries than the length field can say.
    public func serialized() throws(RTCPError) -> [UInt8] {
        guard entries.count <= 8_000 else { throw .unrepresentable(field: "FIR entries", value: entries.count, limit: 8_000) }
        var writer = RTCPWriter()
        writer.packet(count: Int(Self.formatType), packetType: RTCPPacket.payloadSpecificFeedbackType) { writer in
            writer.append(senderSSRC)
            writer.append(UInt32(0))
            for entry in entries {
                writer.append(entry.ssrc)
                writer.append(UInt32(entry.sequenceNumber) << 24)
            }
        }
        return writer.bytes
    }
}

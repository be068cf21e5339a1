import Bitstream

/// What a media sender is asked to do by one RTCP compound packet from its receiver (RFC 4585 §6, RFC 5104 §4.3.1):
/// the sources a picture loss indication (PLI) or a full intra request (FIR) asks a key frame of, and the sequence
/// numbers a generic NACK asks again, per media source — read from the typed packets, the rest passed over.
///
/// ```swift
/// let requests = try RTCPFeedbackRequests(parsing: ByteView(rtcp))
/// if requests.keyFrameSSRCs.contains(videoSSRC) { encoder.forceKeyFrame() }
/// for number in requests.lostSequenceNumbers[videoSSRC] ?? [] { resend(number) }
/// ```
public struct RTCPFeedbackRequests: Sendable, Hashable {
    /// The most sequence numbers kept per media source from one compound packet (a NACK can name thousands; a sender
    /// keeps only a short history anyway).
    public static let maximumLostPerSource = 1024

    /// The media sources a PLI or a FIR asked a key frame of.
    public var keyFrameSSRCs: Set<UInt32>
    /// Whether a FIR (rather than a PLI alone) asked, per media source, with its command sequence number.
    public var fullIntraRequests: [UInt32: UInt8]
    /// The sequence numbers NACKed, per media source, in the order asked, repeats removed.
    public var lostSequenceNumbers: [UInt32: [UInt16]]
    /// The sender reports and receiver reports' blocks carried (a sender may read the loss its receiver sees).
    public var reportBlocks: [RTCPReportBlock]

    /// Nothing asked.
    public init() {
        keyFrameSSRCs = []
        fullIntraRequests = [:]
        lostSequenceNumbers = [:]
        reportBlocks = []
    }

    /// Reads a compound packet (RFC 3550 §6.1) and gathers the requests.
    /// - Parameter bytes: one unprotected RTCP datagram.
    /// - Throws: ``RTCPError`` naming the packet's offset, for a compound packet that does not parse or a FIR whose
    ///   body is shorter than its two SSRCs.
    public init(parsing bytes: ByteView) throws(RTCPError) {
        try self.init(RTCPCompoundPacket(parsing: bytes))
    }

    /// Gathers the requests of a parsed compound packet.
    /// - Parameter compound: the packets.
    /// - Throws: ``RTCPError/truncated(offset:needed:available:)`` for a FIR body shorter than its two SSRCs.
    public init(_ compound: RTCPCompoundPacket) throws(RTCPError) {
        self.init()
        reportBlocks = compound.reportBlocks
        for packet in compound.packets {
            switch packet {
            case let .pictureLossIndication(_, media):
                keyFrameSSRCs.insert(media)
            case let .genericNACK(nack):
                var numbers = lostSequenceNumbers[nack.mediaSSRC] ?? []
                for number in nack.lostSequenceNumbers where numbers.count < Self.maximumLostPerSource && !numbers.contains(number) {
                    numbers.append(number)
                }
                lostSequenceNumbers[nack.mediaSSRC] = numbers
            case let .other(type, count, body) where type == RTCPPacket.payloadSpecificFeedbackType && count == RTCPFullIntraRequest.formatType:
                let request = try RTCPFullIntraRequest(body: body, offset: 0)
                for entry in request.entries {
                    keyFrameSSRCs.insert(entry.ssrc)
                    fullIntraRequests[entry.ssrc] = entry.sequenceNumber
                }
            default:
                continue
            }
        }
    }

    /// Whether nothing was asked.
    public var isEmpty: Bool { keyFrameSSRCs.isEmpty && lostSequenceNumbers.isEmpty }
}

import Bitstream

/// One RTCP packet of a compound packet (RFC 3550 §6.4-§6.6, RFC 4585 §6): typed for the packets a
/// receiver and a sender exchange, kept as bytes for the rest (APP, XR, other feedback).
public enum RTCPPacket: Sendable, Hashable {
    /// SR (200).
    case senderReport(RTCPSenderReport)
    /// RR (201).
    case receiverReport(RTCPReceiverReport)
    /// SDES (202).
    case sourceDescription(RTCPSourceDescription)
    /// BYE (203).
    case goodbye(RTCPGoodbye)
    /// Generic NACK (205, FMT 1).
    case genericNACK(RTCPGenericNACK)
    /// Picture loss indication (206, FMT 1; RFC 4585 §6.3.1): the receiver asks for a key frame.
    case pictureLossIndication(senderSSRC: UInt32, mediaSSRC: UInt32)
    /// Any other packet: its type, its 5-bit count (or FMT) field and its body (a view, padding removed).
    case other(packetType: UInt8, count: UInt8, body: ByteView)

    /// The packet type of payload-specific feedback (PSFB).
    public static let payloadSpecificFeedbackType: UInt8 = 206

    /// The packet type number.
    public var packetType: UInt8 {
        switch self {
        case .senderReport: return RTCPSenderReport.packetType
        case .receiverReport: return RTCPReceiverReport.packetType
        case .sourceDescription: return RTCPSourceDescription.packetType
        case .goodbye: return RTCPGoodbye.packetType
        case .genericNACK: return RTCPGenericNACK.packetType
        case .pictureLossIndication: return Self.payloadSpecificFeedbackType
        case let .other(type, _, _): return type
        }
    }

    /// Reads the packet whose common header is `header` and whose body (padding removed) is `body`.
    static func parse(packetType: UInt8, count: Int, body: ByteView, offset: Int) throws(RTCPError) -> RTCPPacket {
        switch packetType {
        case RTCPSenderReport.packetType: return .senderReport(try RTCPSenderReport(body: body, count: count, offset: offset))
        case RTCPReceiverReport.packetType: return .receiverReport(try RTCPReceiverReport(body: body, count: count, offset: offset))
        case RTCPSourceDescription.packetType:
            return .sourceDescription(try RTCPSourceDescription(body: body, count: count, offset: offset))
        case RTCPGoodbye.packetType: return .goodbye(try RTCPGoodbye(body: body, count: count, offset: offset))
        case RTCPGenericNACK.packetType where count == Int(RTCPGenericNACK.formatType):
            return .genericNACK(try RTCPGenericNACK(body: body, offset: offset))
        case Self.payloadSpecificFeedbackType where count == 1:
            guard let sender = body.getInteger(at: 0, as: UInt32.self), let media = body.getInteger(at: 4, as: UInt32.self) else {
                throw .truncated(offset: offset, needed: 12, available: body.count + 4)
            }
            return .pictureLossIndication(senderSSRC: sender, mediaSSRC: media)
        default:
            return .other(packetType: packetType, count: UInt8(count), body: body)
        }
    }

    /// Appends the packet, header included, without padding.
    func write(to writer: inout RTCPWriter) throws(RTCPError) {
        switch self {
        case let .senderReport(report): try report.write(to: &writer)
        case let .receiverReport(report): try report.write(to: &writer)
        case let .sourceDescription(description): try description.write(to: &writer)
        case let .goodbye(goodbye): try goodbye.write(to: &writer)
        case let .genericNACK(nack): try nack.write(to: &writer)
        case let .pictureLossIndication(sender, media):
            writer.packet(count: 1, packetType: Self.payloadSpecificFeedbackType) { writer in
                writer.append(sender)
                writer.append(media)
            }
        case let .other(type, count, body):
            guard body.count % 4 == 0, body.count <= 0x3_FFFC else {
                throw .unrepresentable(field: "RTCP body bytes (multiple of 4)", value: body.count, limit: 0x3_FFFC)
            }
            guard count < 32 else { throw .unrepresentable(field: "RTCP count field", value: Int(count), limit: 31) }
            writer.packet(count: Int(count), packetType: type) { writer in writer.append(contentsOf: body) }
        }
    }
}

/// The message type id of an RTMP message (Adobe RTMP specification 1.0 §5.4 and §7.1).
public struct RTMPMessageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type id byte.
    public var rawValue: UInt8

    /// A type from its id.
    /// - Parameter rawValue: the id byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Set Chunk Size (§5.4.1).
    public static let setChunkSize = RTMPMessageType(rawValue: 1)
    /// Abort Message (§5.4.2).
    public static let abort = RTMPMessageType(rawValue: 2)
    /// Acknowledgement (§5.4.3).
    public static let acknowledgement = RTMPMessageType(rawValue: 3)
    /// User Control Message (§6.2, §7.1.7).
    public static let userControl = RTMPMessageType(rawValue: 4)
    /// Window Acknowledgement Size (§5.4.4).
    public static let windowAcknowledgementSize = RTMPMessageType(rawValue: 5)
    /// Set Peer Bandwidth (§5.4.5).
    public static let setPeerBandwidth = RTMPMessageType(rawValue: 6)
    /// Audio (§7.1.4): an FLV audio tag body.
    public static let audio = RTMPMessageType(rawValue: 8)
    /// Video (§7.1.5): an FLV video tag body.
    public static let video = RTMPMessageType(rawValue: 9)
    /// Data message in AMF3 (§7.1.2).
    public static let dataAMF3 = RTMPMessageType(rawValue: 15)
    /// Shared object in AMF3 (§7.1.3).
    public static let sharedObjectAMF3 = RTMPMessageType(rawValue: 16)
    /// Command in AMF3 (§7.1.1).
    public static let commandAMF3 = RTMPMessageType(rawValue: 17)
    /// Data message in AMF0 (§7.1.2): `@setDataFrame`, `onMetaData`.
    public static let dataAMF0 = RTMPMessageType(rawValue: 18)
    /// Shared object in AMF0 (§7.1.3).
    public static let sharedObjectAMF0 = RTMPMessageType(rawValue: 19)
    /// Command in AMF0 (§7.1.1): `connect`, `publish`, `onStatus`…
    public static let commandAMF0 = RTMPMessageType(rawValue: 20)
    /// Aggregate (§7.1.6): several FLV tags in one message.
    public static let aggregate = RTMPMessageType(rawValue: 22)

    /// Whether the type is a protocol control message (ids 1–6, on message stream 0 and chunk stream 2).
    public var isProtocolControl: Bool { (1...6).contains(rawValue) }

    /// The name, for example `video` or `type 42`.
    public var description: String {
        switch rawValue {
        case 1: return "setChunkSize"
        case 2: return "abort"
        case 3: return "acknowledgement"
        case 4: return "userControl"
        case 5: return "windowAcknowledgementSize"
        case 6: return "setPeerBandwidth"
        case 8: return "audio"
        case 9: return "video"
        case 15: return "dataAMF3"
        case 16: return "sharedObjectAMF3"
        case 17: return "commandAMF3"
        case 18: return "dataAMF0"
        case 19: return "sharedObjectAMF0"
        case 20: return "commandAMF0"
        case 22: return "aggregate"
        default: return "type \(rawValue)"
        }
    }
}

import Bitstream

/// One SEI message: `sei_message( )` of ITU-T H.264 §7.3.2.3.1 — a payload type and the payload
/// bytes, which this type keeps uninterpreted (see ``H264RecoveryPoint`` for one interpreted payload).
public struct H264SEIMessage: Sendable, Hashable {
    /// `payloadType`.
    public var payloadType: H264SEIPayloadType
    /// The `sei_payload( )` bytes: `payloadSize` bytes of the RBSP.
    public var payload: [UInt8]

    /// Creates a message.
    /// - Parameters:
    ///   - payloadType: the payload type.
    ///   - payload: the payload bytes.
    public init(payloadType: H264SEIPayloadType, payload: [UInt8]) {
        self.payloadType = payloadType
        self.payload = payload
    }

    /// Splits an SEI NAL unit into its messages (ITU-T H.264 §7.3.2.3 `sei_rbsp( )`).
    /// - Parameter nalUnit: the NAL unit (type 6), without start code.
    /// - Returns: the messages, in order.
    /// - Throws: ``H264Error``: a wrong NAL unit type, a bad header, a missing emulation-prevention
    ///   byte, or ``H264Error/syntax(_:nalUnitType:)`` naming `payloadSize` when a payload runs past
    ///   the end.
    public static func messages<Bytes: Collection>(inNALUnit nalUnit: Bytes) throws(H264Error) -> [H264SEIMessage] where Bytes.Element == UInt8 {
        let (_, rbsp) = try H264RBSP.split(nalUnit, expecting: .supplementalEnhancementInformation)
        return try H264RBSP.parse(.supplementalEnhancementInformation) { () throws(SyntaxError) -> [H264SEIMessage] in
            try messages(inRBSP: rbsp)
        }
    }

    /// Splits an SEI RBSP into its messages (ITU-T H.264 §7.3.2.3 `sei_rbsp( )` and §7.3.2.3.1
    /// `sei_message( )`, with the 0xFF continuation bytes of `payloadType` and `payloadSize`).
    /// - Parameter rbsp: the RBSP: the NAL unit after its header, emulation prevention removed.
    /// - Returns: the messages, in order.
    /// - Throws: ``SyntaxError`` naming the field that is cut off, or `payloadSize` when a payload
    ///   runs past the end.
    public static func messages(inRBSP rbsp: [UInt8]) throws(SyntaxError) -> [H264SEIMessage] {
        var reader = BitReader(rbsp)
        var messages: [H264SEIMessage] = []
        repeat {
            let type = try readCodedValue(from: &reader, last: "last_payload_type_byte")
            let sizeOffset = reader.bitPosition
            let size = try readCodedValue(from: &reader, last: "last_payload_size_byte")
            let start = reader.bitPosition / 8
            let available = rbsp.count - start
            guard size <= available else {
                throw SyntaxError(field: "payloadSize", bitOffset: sizeOffset,
                                  reason: .invalid("value \(size) exceeds the \(available) bytes left"))
            }
            messages.append(H264SEIMessage(payloadType: H264SEIPayloadType(rawValue: UInt32(clamping: type)),
                                           payload: Array(rbsp[start..<(start + size)])))
            reader.skipBits(size * 8)
        } while reader.hasMoreRBSPData()
        try reader.rbspTrailingBits()
        return messages
    }

    /// Reads a value coded as any number of 0xFF bytes (each adding 255) and a last byte.
    private static func readCodedValue(from reader: inout BitReader, last: StaticString) throws(SyntaxError) -> Int {
        var value = 0
        while reader.peekBits(8) == 0xFF {
            reader.skipBits(8)
            value += 255
        }
        return value + Int(try reader.u(8, last))
    }

    /// Writes `sei_rbsp( )` for a list of messages (§7.3.2.3): each `payloadType` and `payloadSize`
    /// with 0xFF continuation bytes, the payload, then the trailing bits.
    /// - Parameter messages: the messages, in order (at least one for a conforming SEI).
    /// - Returns: the RBSP bytes.
    public static func rbsp(for messages: [H264SEIMessage]) -> [UInt8] {
        var writer = BitWriter()
        for message in messages {
            writeCodedValue(Int(message.payloadType.rawValue), to: &writer)
            writeCodedValue(message.payload.count, to: &writer)
            writer.writeBytes(message.payload)
        }
        writer.rbspTrailingBits()
        return writer.bytes
    }

    /// Builds an SEI NAL unit holding the messages.
    /// - Parameters:
    ///   - messages: the messages, in order.
    ///   - nalRefIDC: `nal_ref_idc` of the NAL unit (0 for SEI in practice).
    /// - Returns: the NAL unit bytes, without start code.
    public static func nalUnit(for messages: [H264SEIMessage], nalRefIDC: UInt8 = 0) -> [UInt8] {
        H264RBSP.nalUnit(header: H264NALUnitHeader(nalRefIDC: nalRefIDC, nalUnitType: .supplementalEnhancementInformation),
                         rbsp: rbsp(for: messages))
    }

    private static func writeCodedValue(_ value: Int, to writer: inout BitWriter) {
        var rest = value
        while rest >= 255 {
            writer.u(8, 0xFF)
            rest -= 255
        }
        writer.u(8, UInt32(rest))
    }
}

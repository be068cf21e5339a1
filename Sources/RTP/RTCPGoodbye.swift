import Bitstream

/// A goodbye, BYE, packet type 203 (RFC 3550 §6.6): sources that leave the session, and why.
public struct RTCPGoodbye: Sendable, Hashable {
    /// The RTCP packet type.
    public static let packetType: UInt8 = 203

    /// The sources that leave (at most 31).
    public var ssrcs: [UInt32]
    /// The reason for leaving (UTF-8, at most 255 bytes), if given.
    public var reason: String?

    /// Creates a goodbye.
    /// - Parameters:
    ///   - ssrcs: the leaving sources.
    ///   - reason: the reason, if any.
    public init(ssrcs: [UInt32], reason: String? = nil) {
        self.ssrcs = ssrcs
        self.reason = reason
    }

    /// Reads the body: `count` SSRCs, then an optional length-prefixed reason.
    init(body: ByteView, count: Int, offset: Int) throws(RTCPError) {
        guard body.count >= count * 4 else { throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count) }
        var ssrcs: [UInt32] = []
        ssrcs.reserveCapacity(count)
        for index in 0..<count {
            guard let ssrc = body.getInteger(at: index * 4, as: UInt32.self) else {
                throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count)
            }
            ssrcs.append(ssrc)
        }
        var reason: String?
        if let length = body.getByte(at: count * 4) {
            guard let text = body.getView(at: count * 4 + 1, byteCount: Int(length)) else { throw .goodbyeReasonPastEnd(offset: offset) }
            reason = String(decoding: text, as: UTF8.self)
        }
        self.init(ssrcs: ssrcs, reason: reason)
    }

    func write(to writer: inout RTCPWriter) throws(RTCPError) {
        guard ssrcs.count <= 31 else { throw .unrepresentable(field: "BYE sources", value: ssrcs.count, limit: 31) }
        let reasonBytes = reason.map { Array($0.utf8) }
        if let reasonBytes, reasonBytes.count > 255 { throw .unrepresentable(field: "BYE reason length", value: reasonBytes.count, limit: 255) }
        writer.packet(count: ssrcs.count, packetType: Self.packetType) { writer in
            for ssrc in ssrcs { writer.append(ssrc) }
            if let reasonBytes {
                writer.append(UInt8(reasonBytes.count))
                writer.append(contentsOf: reasonBytes)
                let used = (1 + reasonBytes.count) % 4
                if used != 0 { writer.append(contentsOf: repeatElement(UInt8(0), count: 4 - used)) }
            }
        }
    }
}

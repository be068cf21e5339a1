import Bitstream

/// The recovery point SEI payload (ITU-T H.264 §D.1.8): decoding may start at this access unit and
/// the output is correct after ``recoveryFrameCount`` frames — how streams without IDR pictures mark
/// random access points.
public struct H264RecoveryPoint: Sendable, Hashable {
    /// `recovery_frame_cnt`: frames until the output is exact, 0…`MaxFrameNum` − 1.
    public var recoveryFrameCount: UInt32
    /// `exact_match_flag`.
    public var exactMatchFlag: Bool
    /// `broken_link_flag`.
    public var brokenLinkFlag: Bool
    /// `changing_slice_group_idc`, 0…2.
    public var changingSliceGroupIDC: UInt8

    /// Creates a recovery point.
    /// - Parameters:
    ///   - recoveryFrameCount: `recovery_frame_cnt`.
    ///   - exactMatchFlag: `exact_match_flag`.
    ///   - brokenLinkFlag: `broken_link_flag`.
    ///   - changingSliceGroupIDC: `changing_slice_group_idc`.
    public init(recoveryFrameCount: UInt32, exactMatchFlag: Bool = true, brokenLinkFlag: Bool = false, changingSliceGroupIDC: UInt8 = 0) {
        self.recoveryFrameCount = recoveryFrameCount
        self.exactMatchFlag = exactMatchFlag
        self.brokenLinkFlag = brokenLinkFlag
        self.changingSliceGroupIDC = changingSliceGroupIDC
    }

    /// Reads `recovery_point( payloadSize )` (ITU-T H.264 §D.1.8) from an SEI payload.
    /// - Parameter payload: the payload bytes of a message of type ``H264SEIPayloadType/recoveryPoint``.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(payload: [UInt8]) throws(SyntaxError) {
        var reader = BitReader(payload)
        recoveryFrameCount = try reader.ue("recovery_frame_cnt", max: 65535)
        exactMatchFlag = try reader.flag("exact_match_flag")
        brokenLinkFlag = try reader.flag("broken_link_flag")
        changingSliceGroupIDC = try reader.u8(2, "changing_slice_group_idc", allowed: 0...2)
    }

    /// The payload bytes (§D.1.8), padded to a byte with `bit_equal_to_one` and zero bits (§D.1.1).
    /// - Returns: the payload for an ``H264SEIMessage``.
    public func payload() -> [UInt8] {
        var writer = BitWriter()
        writer.ue(recoveryFrameCount)
        writer.flag(exactMatchFlag)
        writer.flag(brokenLinkFlag)
        writer.u(2, UInt32(changingSliceGroupIDC))
        if !writer.isByteAligned { writer.rbspTrailingBits() }
        return writer.bytes
    }
}

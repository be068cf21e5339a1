import Bitstream

/// What differs between the H.264 (RFC 6184) and H.265 (RFC 7798) payload formats: the NAL header size, the
/// aggregation and fragmentation packet types, and which NAL units are parameter sets, key frames or recovery
/// points. Shared by the packetizers and depacketizers of both codecs.
enum NALUnitFormat: Sendable {
    /// H.264, RFC 6184: 1-byte NAL header, STAP-A 24, FU-A 28.
    case h264
    /// H.265, RFC 7798: 2-byte NAL header, AP 48, FU 49.
    case h265

    /// The size of the NAL unit header.
    var headerSize: Int { self == .h264 ? 1 : 2 }

    /// The NAL unit type of the unit whose first byte is `first`.
    @inline(__always)
    func type(ofFirstByte first: UInt8) -> UInt8 {
        self == .h264 ? first & 0x1F : (first >> 1) & 0x3F
    }

    /// Whether the NAL unit type is a sequence/picture (and for H.265 video) parameter set.
    func isParameterSet(_ type: UInt8) -> Bool {
        self == .h264 ? (type == 7 || type == 8) : (type >= 32 && type <= 34)
    }

    /// Whether the NAL unit type starts a picture that needs no earlier picture: an H.264 IDR (5) or an
    /// H.265 IRAP (16…23, RFC 7798 uses the H.265 §7.4.2.2 ranges).
    func isRandomAccess(_ type: UInt8) -> Bool {
        self == .h264 ? type == 5 : (type >= 16 && type <= 23)
    }

    /// Whether the NAL unit type is a coded slice (VCL).
    func isSlice(_ type: UInt8) -> Bool {
        self == .h264 ? (type >= 1 && type <= 5) : type <= 31
    }

    /// Whether the NAL unit type is an access unit delimiter.
    func isAccessUnitDelimiter(_ type: UInt8) -> Bool {
        self == .h264 ? type == 9 : type == 35
    }

    /// Whether `nalUnit` is an SEI whose first message is a recovery point (payloadType 6; H.264 §D.1.8,
    /// H.265 §D.2.8): decoding may start there and be correct from the recovery frame on.
    func isRecoveryPointSEI(_ nalUnit: ByteView) -> Bool {
        guard let first = nalUnit.first else { return false }
        let type = type(ofFirstByte: first)
        guard self == .h264 ? type == 6 : type == 39 else { return false }
        var index = headerSize
        var payloadType = 0
        while let byte = nalUnit.getByte(at: index) {
            payloadType += Int(byte)
            index += 1
            if byte != 0xFF { return payloadType == 6 }
        }
        return false
    }

    /// The packet type of an aggregation packet (STAP-A 24, AP 48).
    var aggregationType: UInt8 { self == .h264 ? 24 : 48 }
    /// The packet type of a fragmentation unit (FU-A 28, FU 49).
    var fragmentationType: UInt8 { self == .h264 ? 28 : 49 }
}

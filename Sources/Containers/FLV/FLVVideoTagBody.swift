import Bitstream

/// The body of an FLV video tag — exactly what an RTMP video message (type 9) carries: a legacy
/// `VIDEODATA` with an `AVCVIDEOPACKET` (FLV specification v10.1, E.4.3.1–E.4.3.2), or an Enhanced RTMP
/// `ExVideoTagHeader` + body (veovera enhanced-rtmp v1).
///
/// Parsing never copies: ``payload`` is a view into the bytes given. Writing puts the header into a
/// caller's buffer (``appendHeader(to:)``) so the payload can go out from where it is.
///
/// | form | header bytes | payload |
/// | --- | --- | --- |
/// | legacy AVC (`CodecID` 7) | FrameType·CodecID, AVCPacketType, CompositionTime SI24 | avcC, or AVCC NAL units |
/// | enhanced `SequenceStart` | IsExHeader·FrameType·PacketType, FourCC | avcC / hvcC |
/// | enhanced `CodedFrames` (`avc1`, `hvc1`) | … FourCC, CompositionTime SI24 | AVCC NAL units |
/// | enhanced `CodedFramesX` | … FourCC | AVCC NAL units (composition time 0) |
/// | other legacy codecs, command frames | FrameType·CodecID | the rest |
public struct FLVVideoTagBody: FLVTagBody, Hashable {
    /// The frame type (key, inter, command …).
    public var frameType: FLVVideoFrameType
    /// The codec, legacy or enhanced (which decides the header's form).
    public var codec: FLVVideoCodec
    /// What the payload is. For a legacy codec other than AVC, and for command frames, always
    /// ``FLVVideoPacketType/codedFrames`` (their bodies have no packet type).
    public var packetType: FLVVideoPacketType
    /// Presentation minus decode time, in milliseconds (`CompositionTime`, SI24); 0 where the form has none.
    public var compositionTimeOffset: Int32
    /// The bytes after the header (no copy of the tag).
    public var payload: ByteView

    /// Creates a body.
    /// - Parameters:
    ///   - frameType: the frame type.
    ///   - codec: the codec.
    ///   - packetType: what the payload is.
    ///   - compositionTimeOffset: pts − dts in milliseconds (−8 388 608 through 8 388 607).
    ///   - payload: the bytes after the header.
    public init(frameType: FLVVideoFrameType, codec: FLVVideoCodec, packetType: FLVVideoPacketType,
                compositionTimeOffset: Int32 = 0, payload: ByteView) {
        self.frameType = frameType
        self.codec = codec
        self.packetType = packetType
        self.compositionTimeOffset = compositionTimeOffset
        self.payload = payload
    }

    /// Whether the header has the AVC packet layout (packet type and composition time).
    private var isAVCPacket: Bool { codec.hasAVCPacketLayout && frameType != .command }

    /// Parses a video tag body (E.4.3.1 `VIDEODATA`, E.4.3.2 `AVCVIDEOPACKET`; enhanced-rtmp v1
    /// `ExVideoTagHeader`: `IsExHeader UB[1]`, `FrameType UB[3]`, `PacketType UB[4]`, `VideoFourCc UI32`).
    /// - Parameter body: the tag's body (an RTMP video message's payload); its reader index is ignored.
    /// - Throws: ``FLVError`` with the offset in the body: ``FLVError/Reason/truncated(field:)``,
    ///   ``FLVError/Reason/invalidFrameType(_:)``, ``FLVError/Reason/unknownVideoPacketType(_:)``.
    public init(parsing body: ByteView) throws(FLVError) {
        guard let first = body.getByte(at: 0) else { throw FLVError(.truncated(field: "FrameType"), offset: 0) }
        if first & 0x80 != 0 {
            let rawFrameType = (first >> 4) & 0x07
            guard let frameType = FLVVideoFrameType(rawValue: rawFrameType) else {
                throw FLVError(.invalidFrameType(rawFrameType), offset: 0)
            }
            guard let packetType = FLVVideoPacketType(rawValue: first & 0x0F) else {
                throw FLVError(.unknownVideoPacketType(first & 0x0F), offset: 0)
            }
            guard let code = body.getInteger(at: 1, as: UInt32.self) else { throw FLVError(.truncated(field: "VideoFourCc"), offset: 1) }
            let fourCC = FLVFourCC(rawValue: code)
            var start = 5
            var offset: Int32 = 0
            if packetType == .codedFrames, fourCC.hasCompositionTime {
                offset = try Self.compositionTime(in: body, at: 5)
                start = 8
            }
            self.init(frameType: frameType, codec: .enhanced(fourCC), packetType: packetType,
                      compositionTimeOffset: offset, payload: body.getView(in: start..<body.count) ?? ByteView())
            return
        }
        let rawFrameType = first >> 4
        guard let frameType = FLVVideoFrameType(rawValue: rawFrameType) else { throw FLVError(.invalidFrameType(rawFrameType), offset: 0) }
        let codec = FLVVideoCodec.legacy(codecID: first & 0x0F)
        guard codec.hasAVCPacketLayout, frameType != .command else {
            self.init(frameType: frameType, codec: codec, packetType: .codedFrames, payload: body.getView(in: 1..<body.count) ?? ByteView())
            return
        }
        guard let rawPacketType = body.getByte(at: 1) else { throw FLVError(.truncated(field: "AVCPacketType"), offset: 1) }
        guard rawPacketType <= 2, let packetType = FLVVideoPacketType(rawValue: rawPacketType) else {
            throw FLVError(.unknownVideoPacketType(rawPacketType), offset: 1)
        }
        let offset = try Self.compositionTime(in: body, at: 2)
        self.init(frameType: frameType, codec: codec, packetType: packetType, compositionTimeOffset: offset,
                  payload: body.getView(in: 5..<body.count) ?? ByteView())
    }

    private static func compositionTime(in body: ByteView, at index: Int) throws(FLVError) -> Int32 {
        guard let raw = body.getUnsignedBigEndian(at: index, byteCount: 3) else {
            throw FLVError(.truncated(field: "CompositionTime"), offset: index)
        }
        return Int32(truncatingIfNeeded: UInt32(raw) << 8) >> 8  // sign-extend SI24
    }

    /// The number of header bytes before ``payload``.
    public var headerByteCount: Int {
        switch codec {
        case .enhanced(let fourCC): return packetType == .codedFrames && fourCC.hasCompositionTime ? 8 : 5
        case .legacy: return isAVCPacket ? 5 : 1
        }
    }

    /// Appends the header (everything before ``payload``) to `buffer`.
    /// - Parameter buffer: where the header goes.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` for a composition time outside SI24, a legacy
    ///   AVC packet type that only Enhanced RTMP has, or a codec ID or packet type past 4 bits.
    public func appendHeader(to buffer: inout [UInt8]) throws(FLVError) {
        guard compositionTimeOffset >= -(1 << 23), compositionTimeOffset < 1 << 23 else {
            throw FLVError(.unrepresentable("composition time \(compositionTimeOffset) ms does not fit SI24"), offset: 0)
        }
        // CompositionTime SI24, appended byte by byte (no array per picture).
        func appendCompositionTime(_ value: Int32) {
            let cts = UInt32(bitPattern: value)
            buffer.append(UInt8(truncatingIfNeeded: cts >> 16))
            buffer.append(UInt8(truncatingIfNeeded: cts >> 8))
            buffer.append(UInt8(truncatingIfNeeded: cts))
        }
        switch codec {
        case let .enhanced(fourCC):
            buffer.append(0x80 | frameType.rawValue << 4 | packetType.rawValue)
            for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: fourCC.rawValue >> UInt32(shift))) }
            if packetType == .codedFrames, fourCC.hasCompositionTime { appendCompositionTime(compositionTimeOffset) }
        case let .legacy(codecID):
            guard codecID < 16 else { throw FLVError(.unrepresentable("CodecID \(codecID) does not fit 4 bits"), offset: 0) }
            buffer.append(frameType.rawValue << 4 | codecID)
            guard isAVCPacket else { return }
            let avcPacketType: UInt8
            switch packetType {
            case .sequenceStart: avcPacketType = 0
            case .codedFrames, .codedFramesX: avcPacketType = 1
            case .sequenceEnd: avcPacketType = 2
            case .metadata, .mpeg2TSSequenceStart:
                throw FLVError(.unrepresentable("packet type \(packetType) needs an Enhanced RTMP header"), offset: 0)
            }
            buffer.append(avcPacketType)
            appendCompositionTime(packetType == .codedFramesX ? 0 : compositionTimeOffset)
        }
    }
}

import Bitstream

/// The body of an FLV audio tag — exactly what an RTMP audio message (type 8) carries (FLV specification
/// v10.1, E.4.2.1 `AUDIODATA`, E.4.2.2 `AACAUDIODATA`): one byte of `SoundFormat UB[4]`, `SoundRate UB[2]`,
/// `SoundSize UB[1]`, `SoundType UB[1]`; for AAC an `AACPacketType`; then the payload (a view, no copy).
public struct FLVAudioTagBody: FLVTagBody, Hashable {
    /// What an AAC body holds (`AACPacketType`, E.4.2.2).
    public enum AACPacketType: UInt8, Sendable, Hashable {
        /// 0: the AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1).
        case sequenceHeader = 0
        /// 1: one raw AAC access unit.
        case raw = 1
    }

    /// `SoundFormat` 10, AAC.
    public static let aacSoundFormat: UInt8 = 10

    /// `SoundFormat` (4 bits): 2 MP3, 3 linear PCM little-endian, 10 AAC, 11 Speex …
    public var soundFormat: UInt8
    /// `SoundRate` (2 bits): 0 5.5 kHz, 1 11 kHz, 2 22 kHz, 3 44 kHz (always 3 for AAC).
    public var soundRate: UInt8
    /// `SoundSize`: 16-bit samples (always for compressed formats).
    public var is16Bit: Bool
    /// `SoundType`: stereo (always set for AAC; the AudioSpecificConfig holds the real layout).
    public var isStereo: Bool
    /// The AAC packet type; `nil` for formats other than AAC.
    public var aacPacketType: AACPacketType?
    /// The bytes after the header.
    public var payload: ByteView

    /// Creates a body.
    /// - Parameters:
    ///   - soundFormat: the `SoundFormat`.
    ///   - soundRate: the `SoundRate`, 0…3.
    ///   - is16Bit: the `SoundSize`.
    ///   - isStereo: the `SoundType`.
    ///   - aacPacketType: for AAC, the packet type.
    ///   - payload: the bytes after the header.
    public init(soundFormat: UInt8, soundRate: UInt8, is16Bit: Bool, isStereo: Bool, aacPacketType: AACPacketType?, payload: ByteView) {
        self.soundFormat = soundFormat
        self.soundRate = soundRate
        self.is16Bit = is16Bit
        self.isStereo = isStereo
        self.aacPacketType = aacPacketType
        self.payload = payload
    }

    /// An AAC body with the header E.4.2.1 prescribes for AAC (`0xAF`: 44 kHz, 16-bit, stereo).
    /// - Parameters:
    ///   - packetType: sequence header or raw.
    ///   - payload: the AudioSpecificConfig or the access unit.
    /// - Returns: the body.
    public static func aac(_ packetType: AACPacketType, payload: ByteView) -> FLVAudioTagBody {
        FLVAudioTagBody(soundFormat: aacSoundFormat, soundRate: 3, is16Bit: true, isStereo: true, aacPacketType: packetType, payload: payload)
    }

    /// Whether the body is AAC.
    public var isAAC: Bool { soundFormat == Self.aacSoundFormat }

    /// Parses an audio tag body (E.4.2.1, E.4.2.2).
    /// - Parameter body: the tag's body (an RTMP audio message's payload).
    /// - Throws: ``FLVError/Reason/truncated(field:)`` for an empty body or an AAC body without its packet type.
    public init(parsing body: ByteView) throws(FLVError) {
        guard let first = body.getByte(at: 0) else { throw FLVError(.truncated(field: "SoundFormat"), offset: 0) }
        let format = first >> 4
        var packetType: AACPacketType?
        var start = 1
        if format == Self.aacSoundFormat {
            guard let raw = body.getByte(at: 1) else { throw FLVError(.truncated(field: "AACPacketType"), offset: 1) }
            // AACPacketType is 0 or 1; other values are read as raw frames, as FFmpeg's flvdec does.
            packetType = raw == 0 ? .sequenceHeader : .raw
            start = 2
        }
        self.init(soundFormat: format, soundRate: (first >> 2) & 0x03, is16Bit: first & 0x02 != 0, isStereo: first & 0x01 != 0,
                  aacPacketType: packetType, payload: body.getView(in: start..<body.count) ?? ByteView())
    }

    /// The number of header bytes before ``payload``: 2 for AAC, else 1.
    public var headerByteCount: Int { aacPacketType == nil ? 1 : 2 }

    /// Appends the header to `buffer`.
    /// - Parameter buffer: where the header goes.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` for a `SoundFormat` past 4 bits or a `SoundRate` past 2.
    public func appendHeader(to buffer: inout [UInt8]) throws(FLVError) {
        guard soundFormat < 16, soundRate < 4 else {
            throw FLVError(.unrepresentable("SoundFormat \(soundFormat) / SoundRate \(soundRate) do not fit their bits"), offset: 0)
        }
        buffer.append(soundFormat << 4 | soundRate << 2 | (is16Bit ? 2 : 0) | (isStereo ? 1 : 0))
        if let aacPacketType { buffer.append(aacPacketType.rawValue) }
    }
}

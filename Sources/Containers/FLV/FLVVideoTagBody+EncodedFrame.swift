import Bitstream
import MediaCore

// Video tag bodies from StreamKit's types (an encoder's `EncodedFrame` and `FormatDescription`) and back.

extension FLVVideoTagBody {
    /// The sequence start (legacy AVC sequence header, or Enhanced RTMP `SequenceStart`) for a format: its
    /// `avcC` / `hvcC` record, sent before the first coded frame and again whenever the parameter sets change.
    /// - Parameters:
    ///   - format: the stream's H.264 or H.265 format.
    ///   - style: the header style; ``FLVVideoHeaderStyle/preferred(for:)`` when `nil`.
    /// - Throws: ``FLVError`` when the parameter sets make no record or the codec does not fit the style.
    public init(sequenceStartFor format: FormatDescription, style: FLVVideoHeaderStyle? = nil) throws(FLVError) {
        let codec = try (style ?? .preferred(for: format.codec)).videoCodec(for: format.codec)
        self.init(frameType: .keyFrame, codec: codec, packetType: .sequenceStart,
                  payload: ByteView(try FLVDecoderConfiguration.record(for: format)))
    }

    /// The coded-frames body of one encoded picture. The payload is the frame's AVCC data itself (a view of
    /// its array, no copy); the composition time is pts − dts in milliseconds, each rounded to the
    /// millisecond first so that a reader adding it to the tag's timestamp gets the rounded pts.
    ///
    /// Enhanced bodies use `CodedFramesX` when the composition time is 0, as FFmpeg's muxer does.
    /// - Parameters:
    ///   - frame: the picture (AVCC NAL units, as an encoder hands them out).
    ///   - style: the header style; ``FLVVideoHeaderStyle/preferred(for:)`` when `nil`.
    /// - Throws: ``FLVError`` when the codec does not fit the style or the composition time does not fit SI24.
    public init(codedFrame frame: EncodedFrame, style: FLVVideoHeaderStyle? = nil) throws(FLVError) {
        let codec = try (style ?? .preferred(for: frame.codec)).videoCodec(for: frame.codec)
        let offset = FLVTimestamp.milliseconds(frame.pts) - FLVTimestamp.milliseconds(frame.dts)
        guard offset >= -(1 << 23), offset < 1 << 23 else {
            throw FLVError(.unrepresentable("composition time \(offset) ms does not fit SI24"), offset: 0)
        }
        let packetType: FLVVideoPacketType = if case .enhanced = codec, offset == 0 { .codedFramesX } else { .codedFrames }
        self.init(frameType: frame.isKeyFrame ? .keyFrame : .interFrame, codec: codec, packetType: packetType,
                  compositionTimeOffset: Int32(offset), payload: ByteView(frame.data))
    }

    /// The end-of-sequence body (legacy AVC end of sequence, or Enhanced RTMP `SequenceEnd`).
    /// - Parameters:
    ///   - codec: H.264 or H.265.
    ///   - style: the header style; ``FLVVideoHeaderStyle/preferred(for:)`` when `nil`.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` when the codec does not fit the style.
    public init(sequenceEndFor codec: CodecType, style: FLVVideoHeaderStyle? = nil) throws(FLVError) {
        self.init(frameType: .keyFrame, codec: try (style ?? .preferred(for: codec)).videoCodec(for: codec), packetType: .sequenceEnd,
                  payload: ByteView())
    }

    /// Whether the body carries pictures (coded frames of H.264 or H.265).
    public var isCodedFrames: Bool {
        (packetType == .codedFrames || packetType == .codedFramesX) && frameType != .command && codec.codecType != nil
    }

    /// The format a sequence start describes (parameter sets, NAL unit length size, size, profile, level).
    /// - Returns: the format.
    /// - Throws: ``FLVError/Reason/invalidDecoderConfiguration(_:)`` when this is not an H.264/H.265
    ///   sequence start or its record does not parse.
    public func formatDescription() throws(FLVError) -> FormatDescription {
        guard packetType == .sequenceStart, let codecType = codec.codecType else {
            throw FLVError(.invalidDecoderConfiguration("a \(packetType) body of \(codec) is no H.264/H.265 sequence start"), offset: 0)
        }
        return try FLVDecoderConfiguration.format(from: payload, codec: codecType).format
    }

    /// The picture as an ``EncodedFrame`` (its AVCC data copied out of the tag, the one copy an owned
    /// frame needs).
    /// - Parameters:
    ///   - timestamp: the tag's timestamp (the decode time), in milliseconds.
    ///   - format: the format of the sequence start in force.
    ///   - duration: the picture's duration, if known.
    /// - Returns: the frame, pts = timestamp + composition time, in a 1 kHz timescale.
    public func encodedFrame(timestamp: Int64, format: FormatDescription, duration: MediaTime = .zero) -> EncodedFrame {
        EncodedFrame(data: Array(payload), isKeyFrame: frameType == .keyFrame || frameType == .generatedKeyFrame,
                     pts: MediaTime(value: timestamp + Int64(compositionTimeOffset), timescale: 1000),
                     dts: MediaTime(value: timestamp, timescale: 1000), duration: duration, format: format)
    }

    /// Appends the payload's NAL units with 4-byte start codes (no parameter sets added; see ``FLVAnnexBFramer``
    /// for the framing FFmpeg's `h264_mp4toannexb` / `hevc_mp4toannexb` give).
    /// - Parameters:
    ///   - buffer: where the Annex B bytes go.
    ///   - nalUnitLengthSize: the length prefix size of the sequence start (1, 2 or 4).
    /// - Throws: ``FLVError/Reason/invalidNALUnitFraming(_:)`` when the lengths do not fit the payload; the
    ///   units before the fault are appended.
    public func appendAnnexB(to buffer: inout [UInt8], nalUnitLengthSize: Int = 4) throws(FLVError) {
        do {
            try AVCC.forEachNALUnit(in: payload, lengthSize: nalUnitLengthSize) { unit in
                buffer.append(contentsOf: [0, 0, 0, 1])
                unit.withUnsafeBytes { buffer.append(contentsOf: $0) }
            }
        } catch {
            throw FLVError(.invalidNALUnitFraming("\(error)"), offset: headerByteCount)
        }
    }
}

/// FLV timestamps: whole milliseconds (E.4.1 `Timestamp` + `TimestampExtended`).
public enum FLVTimestamp {
    /// A time in milliseconds, rounded to the nearest (halves away from zero).
    /// - Parameter time: the time.
    /// - Returns: milliseconds.
    public static func milliseconds(_ time: MediaTime) -> Int64 {
        time.converted(to: 1000).value
    }
}

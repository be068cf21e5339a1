import Bitstream
import MediaCore
import RTP

/// Turns the access units an RTP receiver rebuilt into ``EncodedFrame``s as an encoder gives them: NAL units in AVCC
/// form (4-byte lengths, no start codes and no rescan), parameter sets taken out of the picture into the
/// ``FormatDescription`` (RFC 6184 §8.2.1 / RFC 7798 §7.2: they may come in the SDP, in band, or both), decode
/// times from ``RTPDecodeTimeline``, and the nominal frame duration.
struct ReceivedVideoFraming: Sendable {
    /// The codec of the track.
    let codec: RTPVideoReceiver.Codec
    /// The format the frames carry: from the SDP, then from parameter sets received in band.
    private(set) var format: FormatDescription?
    /// One frame's duration on the 90 kHz clock.
    let frameDuration: MediaTime
    private var timeline: RTPDecodeTimeline?

    /// A framing.
    /// - Parameters:
    ///   - codec: H.264 or H.265.
    ///   - format: the SDP's format, if it carried the parameter sets.
    ///   - frameRate: the nominal frame rate.
    init(codec: RTPVideoReceiver.Codec, format: FormatDescription?, frameRate: Double) {
        self.codec = codec
        self.format = format
        let rate = frameRate.isFinite && frameRate > 0 ? frameRate : 30
        frameDuration = MediaTime(value: Int64((90_000 / rate).rounded()), timescale: 90_000)
    }

    /// The frame of an access unit.
    /// - Parameters:
    ///   - unit: the access unit.
    ///   - pts: its presentation time.
    /// - Returns: the frame, or `nil` while no parameter sets are known (a picture before the first SPS/PPS cannot
    ///   be decoded; the receiver's key-frame gate makes this the rare case of a stream without any).
    mutating func frame(of unit: RTPAccessUnit, pts: MediaTime) -> EncodedFrame? {
        var parameterSets: [[UInt8]] = []
        var data: [UInt8] = []
        data.reserveCapacity(unit.nalUnits.reduce(0) { $0 + 4 + $1.count })
        for nalUnit in unit.nalUnits {
            guard let header = nalUnit.first else { continue }
            switch Self.role(of: header, codec: codec) {
            case .parameterSet: parameterSets.append(Array(nalUnit))
            case .delimiter: continue
            case .picture: try? AVCC.append(nalUnit, lengthSize: 4, to: &data)
            }
        }
        if !parameterSets.isEmpty, parameterSets != format?.parameterSets, let described = Self.format(of: parameterSets, codec: codec) {
            format = described
        }
        guard let format, !data.isEmpty else { return nil }
        // RTP carries presentation times only: the decode times follow from the SPS's reorder depth.
        if timeline == nil { timeline = RTPDecodeTimeline(format: format, frameDuration: frameDuration) }
        let dts = timeline?.decodeTime(presentationTime: pts) ?? pts
        return EncodedFrame(data: data, isKeyFrame: unit.isRandomAccess, pts: pts, dts: dts, duration: frameDuration, format: format)
    }

    private enum Role { case parameterSet, delimiter, picture }

    /// What a NAL unit is: H.264 types 7/8 (SPS, PPS) and 9 (AUD), ITU-T H.264 Table 7-1; H.265 types 32–34
    /// (VPS, SPS, PPS) and 35 (AUD), ITU-T H.265 Table 7-1.
    private static func role(of header: UInt8, codec: RTPVideoReceiver.Codec) -> Role {
        switch codec {
        case .h264:
            switch header & 0x1F {
            case 7, 8: return .parameterSet
            case 9: return .delimiter
            default: return .picture
            }
        case .h265:
            switch (header >> 1) & 0x3F {
            case 32, 33, 34: return .parameterSet
            case 35: return .delimiter
            default: return .picture
            }
        }
    }

    /// The format the parameter sets describe (parsed by the H264/HEVC modules through the SDP parameter types).
    private static func format(of parameterSets: [[UInt8]], codec: RTPVideoReceiver.Codec) -> FormatDescription? {
        switch codec {
        case .h264:
            return try? SDPH264Parameters(parameterSets: parameterSets).formatDescription()
        case .h265:
            let type = { (unit: [UInt8]) in unit.first.map { ($0 >> 1) & 0x3F } }
            return try? SDPH265Parameters(videoParameterSets: parameterSets.filter { type($0) == 32 },
                                          sequenceParameterSets: parameterSets.filter { type($0) == 33 },
                                          pictureParameterSets: parameterSets.filter { type($0) == 34 }).formatDescription()
        }
    }
}

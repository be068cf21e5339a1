import H264
import HEVC
import MediaCore

/// Decode times for access units received over RTP, which carries presentation times only (RFC 3550 §5.1: the
/// timestamp is the sampling instant, and packets come in decoding order): the first dts is `reorderDepth` frame
/// durations before its pts, each next one a frame later but never after its own pts (after a jump — frames lost or
/// withheld — it starts again from the pts), strictly increasing.
///
/// The reorder depth comes from the sequence parameter set: H.264's `max_num_reorder_frames` (ITU-T H.264 §E.2.1,
/// VUI bitstream restrictions; 0 for the Baseline profiles, which have no B slices, and 2 when a Main/High stream
/// does not say), H.265's `sps_max_num_reorder_pics` of the highest sub-layer (ITU-T H.265 §7.4.3.2.1).
public struct RTPDecodeTimeline: Sendable, Hashable {
    /// How many frames may precede a frame in decoding order and follow it in output order.
    public let reorderDepth: Int
    /// One frame's duration.
    public let frameDuration: MediaTime
    private var last: MediaTime?

    /// A timeline.
    /// - Parameters:
    ///   - format: the video format whose SPS gives the reorder depth.
    ///   - frameDuration: one frame's duration (from the nominal frame rate).
    public init(format: FormatDescription, frameDuration: MediaTime) {
        reorderDepth = Self.reorderDepth(of: format)
        self.frameDuration = frameDuration
    }

    /// The decode time of the next access unit, in decoding order.
    /// - Parameter pts: its presentation time.
    /// - Returns: its decode time: at most its pts, after the previous one.
    public mutating func decodeTime(presentationTime pts: MediaTime) -> MediaTime {
        let step = max(frameDuration.converted(to: pts.timescale).value, 1)
        let earliest = pts.value - Int64(reorderDepth) * step
        var value = earliest
        if let last = last?.converted(to: pts.timescale).value {
            // A jump (frames lost or withheld) starts again from the pts; otherwise one frame after the last, never
            // after the pts.
            if pts.value - last <= Int64(2 * reorderDepth + 4) * step { value = min(pts.value, last + step) }
            value = max(value, last + 1)
        }
        let dts = MediaTime(value: value, timescale: pts.timescale)
        last = dts
        return dts
    }

    /// The reorder depth the format's first SPS declares.
    private static func reorderDepth(of format: FormatDescription) -> Int {
        switch format.codec {
        case .h264:
            guard let unit = format.parameterSets.first(where: { $0.first.map { $0 & 0x1F == 7 } ?? false }),
                  let sps = try? H264SequenceParameterSet(nalUnit: unit) else { return 0 }
            if let restriction = sps.vuiParameters?.bitstreamRestriction { return Int(min(restriction.maxNumReorderFrames, 16)) }
            return sps.profileIDC == 66 ? 0 : 2
        case .hevc:
            guard let unit = format.parameterSets.first(where: { $0.first.map { ($0 >> 1) & 0x3F == 33 } ?? false }),
                  let sps = try? HEVCSequenceParameterSet(nalUnit: unit) else { return 0 }
            return min(max(sps.subLayerOrderingInfo.last?.maxNumReorderPics ?? 0, 0), 16)
        default:
            return 0
        }
    }
}

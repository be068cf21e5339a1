import Bitstream

/// How the pictures of an H.264 stream are scanned: progressive, or interlaced with the top or the
/// bottom field first — what a player, a Y4M header (`Ip`/`It`/`Ib`) and ffprobe's `field_order`
/// (`progressive`/`tt`/`bb`) say about the stream.
public enum H264FieldOrder: Sendable, Hashable, CaseIterable {
    /// Frames only, or frames whose two fields are output at the same time.
    case progressive
    /// Interlaced; the top field comes first.
    case topFieldFirst
    /// Interlaced; the bottom field comes first.
    case bottomFieldFirst

    /// The field order a stream announces with its first primary picture (ITU-T H.264 §7.4.2.1.1,
    /// §7.4.3, §8.2.1):
    /// - `frame_mbs_only_flag` = 1: ``progressive``.
    /// - the picture is a field (`field_pic_flag` = 1): the order of that field — the first field
    ///   of a pair is output first.
    /// - the picture is a frame (a frame picture of a field-capable stream, MBAFF or not): the
    ///   picture timing SEI's `pic_struct` when the stream sends one (§D.2.3: it is how the frame is
    ///   displayed — x264 `--tff`, for one, codes the bottom field's order count below the top's
    ///   and says "top, bottom" in `pic_struct`); else the field with the smaller order count comes
    ///   first (`TopFieldOrderCnt` versus `BottomFieldOrderCnt`), and equal counts show both fields
    ///   at once: ``progressive``. This is the order FFmpeg's parser reports as `field_order`.
    /// - Parameters:
    ///   - sps: the picture's sequence parameter set.
    ///   - picture: the first primary picture of the stream.
    ///   - pictureStructure: `pic_struct` of the picture's picture timing SEI, if it has one.
    public init(sequenceParameterSet sps: H264SequenceParameterSet, firstPicture picture: H264Picture,
                pictureStructure: H264PictureStructureSEI? = nil) {
        if sps.frameMbsOnlyFlag {
            self = .progressive
            return
        }
        switch picture.structure {
        case .topField: self = .topFieldFirst
        case .bottomField: self = .bottomFieldFirst
        case .frame:
            if let order = pictureStructure?.fieldOrder {
                self = order
                return
            }
            let top = picture.pictureOrderCount.topFieldOrderCount ?? 0
            let bottom = picture.pictureOrderCount.bottomFieldOrderCount ?? 0
            self = top < bottom ? .topFieldFirst : top > bottom ? .bottomFieldFirst : .progressive
        }
    }

    /// The field order of an Annex B stream, from its first primary picture (see
    /// ``init(sequenceParameterSet:firstPicture:)``).
    /// - Parameter stream: the start of the stream: enough bytes to hold its first picture's SPS,
    ///   PPS and first slice header.
    /// - Returns: the field order, or `nil` if no picture could be read in `stream`.
    public static func of(annexBStream stream: [UInt8]) -> H264FieldOrder? {
        var detector = H264AccessUnitDetector()
        var timing: [UInt8]?
        for range in AnnexB.nalUnitRanges(in: stream) {
            let nal = stream[range]
            guard let result = try? detector.process(nal) else { continue }
            if result.startsAccessUnit { timing = nil }
            if result.nalUnitHeader.nalUnitType == .supplementalEnhancementInformation, let messages = try? H264SEIMessage.messages(inNALUnit: nal),
               let message = messages.first(where: { $0.payloadType == .picTiming }) {
                timing = message.payload
            }
            guard let picture = result.picture else { continue }
            guard let sps = detector.parameterSets.sequenceParameterSet(id: picture.seqParameterSetID) else { return nil }
            let structure = timing.flatMap { try? H264PictureStructureSEI.read(fromPictureTimingPayload: $0, sequenceParameterSet: sps) }
            return H264FieldOrder(sequenceParameterSet: sps, firstPicture: picture, pictureStructure: structure)
        }
        return nil
    }
}

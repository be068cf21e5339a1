/// Computes picture order counts picture by picture in decoding order (ITU-T H.264 §8.2.1,
/// picture order count types 0, 1 and 2), keeping the "previous picture" state the derivations need.
///
/// `memory_management_control_operation` 5 is handled: the picture that carries it gets its counts
/// reduced by `tempPicOrderCnt` after decoding (so a frame ends at 0), and the next pictures count
/// from there, as §8.2.1 specifies. The values returned for an MMCO-5 picture are those after that
/// reduction: like an IDR picture it follows every earlier picture in output order, and later
/// pictures are ordered relative to it.
public struct H264PictureOrderCounter: Sendable, Hashable {
    // Type 0: the previous reference picture.
    private var previousReferenceMsb = 0
    private var previousReferenceLsb = 0
    // Types 1 and 2: the previous picture.
    private var previousFrameNumOffset = 0
    private var previousFrameNum = 0

    /// Creates a counter in the state before the first IDR picture.
    public init() {}

    /// Computes the picture order count of the picture whose first slice header is `header`, and
    /// records the picture as the previous one. Call once per primary coded picture, in decoding order.
    /// - Parameters:
    ///   - header: the first slice header of the picture.
    ///   - sps: the SPS the picture refers to.
    /// - Returns: the field order counts of the picture (after MMCO-5 processing, see the type's notes).
    public mutating func pictureOrderCount(for header: H264SliceHeader, sequenceParameterSet sps: H264SequenceParameterSet) -> H264PictureOrderCount {
        let structure = header.pictureStructure
        let isReference = header.nalRefIDC != 0
        let frameNum = Int(header.frameNum)
        var top = 0
        var bottom = 0
        var frameNumOffset = 0

        switch sps.picOrderCntType {
        case 0:
            if header.isIDR {
                previousReferenceMsb = 0
                previousReferenceLsb = 0
            }
            let maxLsb = Int(sps.maxPicOrderCntLsb)
            let lsb = Int(header.picOrderCntLsb)
            var msb = previousReferenceMsb
            if lsb < previousReferenceLsb && previousReferenceLsb - lsb >= maxLsb / 2 {
                msb = previousReferenceMsb &+ maxLsb
            } else if lsb > previousReferenceLsb && lsb - previousReferenceLsb > maxLsb / 2 {
                msb = previousReferenceMsb &- maxLsb
            }
            top = msb &+ lsb
            bottom = structure == .frame ? top &+ Int(header.deltaPicOrderCntBottom) : msb &+ lsb
            if isReference {
                previousReferenceMsb = msb
                previousReferenceLsb = lsb
            }
        default:
            if header.isIDR {
                frameNumOffset = 0
            } else if previousFrameNum > frameNum {
                frameNumOffset = previousFrameNumOffset &+ Int(sps.maxFrameNum)
            } else {
                frameNumOffset = previousFrameNumOffset
            }
            if sps.picOrderCntType == 1 {
                (top, bottom) = Self.typeOneCounts(header: header, sps: sps, frameNumOffset: frameNumOffset)
            } else {
                let base = 2 &* (frameNumOffset &+ frameNum)
                let temp = header.isIDR ? 0 : (isReference ? base : base &- 1)
                top = temp
                bottom = temp
            }
            previousFrameNumOffset = frameNumOffset
            previousFrameNum = frameNum
        }

        if header.hasMemoryManagementControlOperation5 {
            let temp: Int
            switch structure {
            case .frame: temp = min(top, bottom)
            case .topField: temp = top
            case .bottomField: temp = bottom
            }
            top = top &- temp
            bottom = bottom &- temp
            // §8.2.1: the next pictures see this one with frame_num 0 and FrameNumOffset 0, and (type 0)
            // prevPicOrderCntMsb 0 with prevPicOrderCntLsb the reduced TopFieldOrderCnt (0 for a bottom field).
            previousFrameNumOffset = 0
            previousFrameNum = 0
            previousReferenceMsb = 0
            previousReferenceLsb = structure == .bottomField ? 0 : top
        }
        return H264PictureOrderCount(topFieldOrderCount: structure == .bottomField ? nil : top,
                                     bottomFieldOrderCount: structure == .topField ? nil : bottom)
    }

    /// The counts of picture order count type 1 (§8.2.1.2).
    private static func typeOneCounts(header: H264SliceHeader, sps: H264SequenceParameterSet, frameNumOffset: Int) -> (Int, Int) {
        let cycleLength = sps.offsetForRefFrame.count
        var absFrameNum = cycleLength != 0 ? frameNumOffset &+ Int(header.frameNum) : 0
        if header.nalRefIDC == 0 && absFrameNum > 0 { absFrameNum -= 1 }
        var expected = 0
        if absFrameNum > 0 {
            let cycleCount = (absFrameNum - 1) / cycleLength
            let frameInCycle = (absFrameNum - 1) % cycleLength
            expected = cycleCount &* sps.expectedDeltaPerPicOrderCntCycle
            for index in 0...frameInCycle { expected = expected &+ Int(sps.offsetForRefFrame[index]) }
        }
        if header.nalRefIDC == 0 { expected = expected &+ Int(sps.offsetForNonRefPic) }
        switch header.pictureStructure {
        case .frame:
            let top = expected &+ Int(header.deltaPicOrderCnt0)
            return (top, top &+ Int(sps.offsetForTopToBottomField) &+ Int(header.deltaPicOrderCnt1))
        case .topField:
            return (expected &+ Int(header.deltaPicOrderCnt0), 0)
        case .bottomField:
            return (0, expected &+ Int(sps.offsetForTopToBottomField) &+ Int(header.deltaPicOrderCnt0))
        }
    }
}

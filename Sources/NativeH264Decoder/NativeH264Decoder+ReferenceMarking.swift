import H264

extension NativeH264Decoder {
    /// The decoded reference picture marking process for frames (§8.2.5): IDR, sliding window
    /// (§8.2.5.3) or the adaptive memory control operations (§8.2.5.4).
    func markReferences(_ picture: DecoderPicture, header: H264SliceHeader, sps: H264SequenceParameterSet) {
        let marking = header.decRefPicMarking
        if header.isIDR {
            for other in dpb { other.marking = .unused }
            maxLongTermFrameIndex = marking?.longTermReferenceFlag == true ? 0 : nil
            if marking?.longTermReferenceFlag == true {
                picture.marking = .longTerm
                picture.longTermFrameIndex = 0
            } else {
                picture.marking = .shortTerm
            }
            removeUnusedFrames()
            return
        }
        var currentIsLongTerm = false
        if let operations = marking?.adaptiveOperations {
            let currentPicNum = picture.frameNum
            let maxFrameNum = Int(sps.maxFrameNum)
            func shortTerm(picNum: Int) -> DecoderPicture? {
                dpb.first { $0.marking == .shortTerm && Self.frameNumWrap($0.frameNum, current: currentPicNum, max: maxFrameNum) == picNum }
            }
            for operation in operations {
                switch operation {
                case let .markShortTermUnused(difference):
                    shortTerm(picNum: currentPicNum - (Int(difference) + 1))?.marking = .unused
                case let .markLongTermUnused(longTermPicNum):
                    dpb.first { $0.marking == .longTerm && $0.longTermFrameIndex == Int(longTermPicNum) }?.marking = .unused
                case let .assignLongTermFrameIndex(difference, index):
                    if let target = shortTerm(picNum: currentPicNum - (Int(difference) + 1)) {
                        for other in dpb where other.marking == .longTerm && other.longTermFrameIndex == Int(index) && other !== target {
                            other.marking = .unused
                        }
                        target.marking = .longTerm
                        target.longTermFrameIndex = Int(index)
                    }
                case let .setMaxLongTermFrameIndex(plus1):
                    maxLongTermFrameIndex = plus1 == 0 ? nil : Int(plus1) - 1
                    for other in dpb where other.marking == .longTerm && other.longTermFrameIndex > (maxLongTermFrameIndex ?? -1) {
                        other.marking = .unused
                    }
                case .markAllUnused:
                    for other in dpb { other.marking = .unused }
                    maxLongTermFrameIndex = nil
                case let .assignCurrentLongTerm(index):
                    for other in dpb where other.marking == .longTerm && other.longTermFrameIndex == Int(index) { other.marking = .unused }
                    picture.marking = .longTerm
                    picture.longTermFrameIndex = Int(index)
                    currentIsLongTerm = true
                }
            }
        } else {
            slidingWindow(sps: sps, currentFrameNum: picture.frameNum)
        }
        if !currentIsLongTerm { picture.marking = .shortTerm }
        // A stream that marks more frames than max_num_ref_frames (damaged, or wrong): drop the oldest
        // short-term ones, then the long-term ones with the lowest index, so the DPB stays bounded.
        let limit = max(Int(sps.maxNumRefFrames), 1)
        while dpb.filter(\.isReference).count + 1 > limit {
            if dropOldestShortTerm(currentFrameNum: picture.frameNum, sps: sps) { continue }
            guard let lowest = dpb.filter({ $0.marking == .longTerm }).min(by: { $0.longTermFrameIndex < $1.longTermFrameIndex }) else { break }
            lowest.marking = .unused
        }
        removeUnusedFrames()
    }

    /// The sliding window (§8.2.5.3): when the reference frames fill max_num_ref_frames, the short-term
    /// one with the smallest FrameNumWrap stops being a reference.
    func slidingWindow(sps: H264SequenceParameterSet, currentFrameNum: Int) {
        let limit = max(Int(sps.maxNumRefFrames), 1)
        while dpb.filter(\.isReference).count >= limit {
            guard dropOldestShortTerm(currentFrameNum: currentFrameNum, sps: sps) else { break }
        }
        removeUnusedFrames()
    }

    /// Marks the short-term frame with the smallest FrameNumWrap unused; false when there is none.
    func dropOldestShortTerm(currentFrameNum: Int, sps: H264SequenceParameterSet) -> Bool {
        let maxFrameNum = Int(sps.maxFrameNum)
        let oldest = dpb.filter { $0.marking == .shortTerm }
            .min { Self.frameNumWrap($0.frameNum, current: currentFrameNum, max: maxFrameNum) < Self.frameNumWrap($1.frameNum, current: currentFrameNum, max: maxFrameNum) }
        guard let oldest else { return false }
        oldest.marking = .unused
        return true
    }

    /// FrameNumWrap (8-27): frame numbers above the current one belong to the previous cycle.
    static func frameNumWrap(_ frameNum: Int, current: Int, max: Int) -> Int {
        frameNum > current ? frameNum - max : frameNum
    }
}

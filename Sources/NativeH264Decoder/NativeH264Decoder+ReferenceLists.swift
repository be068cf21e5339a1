import H264

extension NativeH264Decoder {
    /// RefPicList0 and RefPicList1 of a slice (§8.2.4): the initial lists (§8.2.4.2.1 for P, §8.2.4.2.3
    /// for B), cut or padded to `num_ref_idx_lX_active_minus1` + 1 entries (§8.2.4.2), then modified
    /// (§8.2.4.3). `nil` where the stream names a picture the DPB does not hold. I slices have none.
    func buildReferenceLists(header: H264SliceHeader, sps: H264SequenceParameterSet,
                             context: SliceContext) -> ([DecoderPicture?], [DecoderPicture?]) {
        guard header.sliceType == .p || header.sliceType == .b else { return ([], []) }
        if !sps.frameMbsOnlyFlag { return buildInterlacedReferenceLists(header: header, sps: sps, context: context) }
        let currentPicNum = Int(header.frameNum)
        let maxFrameNum = Int(sps.maxFrameNum)
        let longTerm = dpb.filter { $0.marking == .longTerm }.sorted { $0.longTermFrameIndex < $1.longTermFrameIndex }
        let shortTerm = dpb.filter { $0.marking == .shortTerm }
        if header.sliceType == .p {
            // §8.2.4.2.1: short-term by descending PicNum, then long-term by ascending LongTermPicNum.
            let ordered = shortTerm.sorted {
                Self.frameNumWrap($0.frameNum, current: currentPicNum, max: maxFrameNum)
                    > Self.frameNumWrap($1.frameNum, current: currentPicNum, max: maxFrameNum)
            }
            let list = Self.sized(ordered + longTerm, count: context.referenceCount)
            return (modified(list, by: header.refPicListModificationL0, count: context.referenceCount, header: header, sps: sps), [])
        }
        // §8.2.4.2.3: list 0 takes the short-term frames before the current one by descending POC, then
        // those after it by ascending POC; list 1 the other way round; long-term frames follow in both.
        let poc = context.picture.pictureOrderCount
        let before = shortTerm.filter { $0.pictureOrderCount <= poc }.sorted { $0.pictureOrderCount > $1.pictureOrderCount }
        let after = shortTerm.filter { $0.pictureOrderCount > poc }.sorted { $0.pictureOrderCount < $1.pictureOrderCount }
        let initial0 = before + after + longTerm
        var initial1 = after + before + longTerm
        if initial1.count > 1 && initial1.elementsEqual(initial0, by: ===) { initial1.swapAt(0, 1) }
        let list0 = modified(Self.sized(initial0, count: context.referenceCount), by: header.refPicListModificationL0,
                             count: context.referenceCount, header: header, sps: sps)
        let list1 = modified(Self.sized(initial1, count: context.referenceCountL1), by: header.refPicListModificationL1,
                             count: context.referenceCountL1, header: header, sps: sps)
        return (list0, list1)
    }

    /// An initial list cut to, or padded with `nil` to, `count` entries (§8.2.4.2).
    static func sized(_ pictures: [DecoderPicture], count: Int) -> [DecoderPicture?] {
        var list: [DecoderPicture?] = pictures.prefix(count).map { $0 }
        while list.count < count { list.append(nil) }
        return list
    }

    /// The modification of a reference picture list (§8.2.4.3): each operation puts the short-term
    /// frame of the predicted PicNum (§8.2.4.3.1) or the long-term frame of LongTermPicNum (§8.2.4.3.2)
    /// at the next index and removes its later duplicate, the list keeping `count` entries.
    func modified(_ initial: [DecoderPicture?], by modification: H264RefPicListModification?, count: Int,
                  header: H264SliceHeader, sps: H264SequenceParameterSet) -> [DecoderPicture?] {
        guard let modification else { return initial }
        var list = initial
        let currentPicNum = Int(header.frameNum)
        let maxFrameNum = Int(sps.maxFrameNum)
        var predicted = currentPicNum
        for (refIdx, operation) in modification.operations.enumerated() where refIdx < count {
            let target: DecoderPicture?
            switch operation {
            case let .subtractShortTerm(difference), let .addShortTerm(difference):
                var noWrap: Int
                if case .subtractShortTerm = operation {
                    noWrap = predicted - (Int(difference) + 1)
                    if noWrap < 0 { noWrap += maxFrameNum }
                } else {
                    noWrap = predicted + (Int(difference) + 1)
                    if noWrap >= maxFrameNum { noWrap -= maxFrameNum }
                }
                predicted = noWrap
                let picNum = noWrap > currentPicNum ? noWrap - maxFrameNum : noWrap
                target = dpb.first {
                    $0.marking == .shortTerm && Self.frameNumWrap($0.frameNum, current: currentPicNum, max: maxFrameNum) == picNum
                }
            case let .longTerm(longTermPicNum):
                target = dpb.first { $0.marking == .longTerm && $0.longTermFrameIndex == Int(longTermPicNum) }
            }
            list.insert(target, at: refIdx)
            if let target, let duplicate = list.indices.first(where: { $0 > refIdx && list[$0] === target }) {
                list.remove(at: duplicate)
            }
            if list.count > count { list.removeLast(list.count - count) }
        }
        return list
    }
}

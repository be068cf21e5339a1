import H264

extension NativeH264Decoder {
    /// The marking of a frame from its fields' markings: long-term when a field is, short-term when a field is
    /// a reference, unused otherwise (the DPB keeps a frame while one of its fields is a reference).
    func syncFrameMarking(_ frame: DecoderPicture) {
        guard let fields = frame.fields else { return }
        let markings = [fields.top.marking, fields.bottom.marking]
        if markings.contains(.longTerm) {
            frame.marking = .longTerm
            frame.longTermFrameIndex = fields.top.marking == .longTerm ? fields.top.longTermFrameIndex : fields.bottom.longTermFrameIndex
        } else {
            frame.marking = markings.contains(.shortTerm) ? .shortTerm : .unused
        }
    }

    /// Whether either field of a frame has the marking.
    static func hasField(_ frame: DecoderPicture, marked marking: DecoderPicture.Marking) -> Bool {
        guard let fields = frame.fields else { return frame.marking == marking }
        return fields.top.marking == marking || fields.bottom.marking == marking
    }

    /// The decoded reference picture marking of a frame or a field of an interlaced stream (§8.2.5 with
    /// fields): IDR, the sliding window over frames (§8.2.5.3, not for the second field of a reference pair)
    /// or the memory management control operations on fields and frames (§8.2.5.4, picture numbers of
    /// §8.2.4.1: 2·FrameNumWrap + 1 for the same parity, 2·FrameNumWrap for the other).
    func markInterlacedReferences(_ picture: DecoderPicture, frame: DecoderPicture, header: H264SliceHeader, sps: H264SequenceParameterSet) {
        guard let fields = frame.fields else { return }
        let parity = picture.fieldParity
        let current: [DecoderPicture] = parity == 0 ? [fields.top, fields.bottom] : [picture]
        let others = dpb.filter { $0 !== frame && $0.fields != nil }
        let marking = header.decRefPicMarking
        var currentIsLongTerm = false
        if header.isIDR {
            if !interlace.secondField {
                for other in dpb where other !== frame {
                    other.marking = .unused
                    other.fields?.top.marking = .unused
                    other.fields?.bottom.marking = .unused
                }
            }
            maxLongTermFrameIndex = marking?.longTermReferenceFlag == true ? 0 : nil
            for field in current {
                field.marking = marking?.longTermReferenceFlag == true ? .longTerm : .shortTerm
                field.longTermFrameIndex = 0
            }
            currentIsLongTerm = marking?.longTermReferenceFlag == true
        } else if let operations = marking?.adaptiveOperations {
            let maxFrameNum = Int(sps.maxFrameNum)
            let frameNum = frame.frameNum
            let currPicNum = parity == 0 ? frameNum : 2 * frameNum + 1
            // The candidate pictures: fields (field decoding) or frames as their pairs of fields.
            let stores = dpb.filter { $0.fields != nil }
            func shortTerm(_ picNum: Int) -> [DecoderPicture] {
                for store in stores {
                    let wrap = Self.frameNumWrap(store.frameNum, current: frameNum, max: maxFrameNum)
                    guard let pair = store.fields else { continue }
                    if parity == 0 {
                        if wrap == picNum && pair.top.marking == .shortTerm && pair.bottom.marking == .shortTerm { return [pair.top, pair.bottom] }
                    } else {
                        for field in [pair.top, pair.bottom] where field.marking == .shortTerm && field !== picture {
                            if 2 * wrap + (field.fieldParity == parity ? 1 : 0) == picNum { return [field] }
                        }
                    }
                }
                return []
            }
            func longTerm(_ longTermPicNum: Int) -> [DecoderPicture] {
                for store in stores {
                    guard let pair = store.fields else { continue }
                    if parity == 0 {
                        if pair.top.marking == .longTerm && pair.bottom.marking == .longTerm && pair.top.longTermFrameIndex == longTermPicNum {
                            return [pair.top, pair.bottom]
                        }
                    } else {
                        for field in [pair.top, pair.bottom] where field.marking == .longTerm {
                            if 2 * field.longTermFrameIndex + (field.fieldParity == parity ? 1 : 0) == longTermPicNum { return [field] }
                        }
                    }
                }
                return []
            }
            /// Unmarks the long-term fields of index `index` outside `keep`'s frame.
            func releaseLongTerm(index: Int, keeping keepFrame: DecoderPicture?) {
                for store in stores where store !== keepFrame {
                    for field in [store.fields?.top, store.fields?.bottom].compactMap({ $0 })
                    where field.marking == .longTerm && field.longTermFrameIndex == index {
                        field.marking = .unused
                    }
                }
            }
            for operation in operations {
                switch operation {
                case let .markShortTermUnused(difference):
                    for field in shortTerm(currPicNum - (Int(difference) + 1)) { field.marking = .unused }
                case let .markLongTermUnused(longTermPicNum):
                    for field in longTerm(Int(longTermPicNum)) { field.marking = .unused }
                case let .assignLongTermFrameIndex(difference, index):
                    let targets = shortTerm(currPicNum - (Int(difference) + 1))
                    releaseLongTerm(index: Int(index), keeping: targets.first?.frame)
                    for field in targets {
                        field.marking = .longTerm
                        field.longTermFrameIndex = Int(index)
                    }
                case let .setMaxLongTermFrameIndex(plus1):
                    maxLongTermFrameIndex = plus1 == 0 ? nil : Int(plus1) - 1
                    for store in stores {
                        for field in [store.fields?.top, store.fields?.bottom].compactMap({ $0 })
                        where field.marking == .longTerm && field.longTermFrameIndex > (maxLongTermFrameIndex ?? -1) {
                            field.marking = .unused
                        }
                    }
                case .markAllUnused:
                    for store in stores {
                        for field in [store.fields?.top, store.fields?.bottom].compactMap({ $0 }) where field !== picture { field.marking = .unused }
                    }
                    maxLongTermFrameIndex = nil
                case let .assignCurrentLongTerm(index):
                    releaseLongTerm(index: Int(index), keeping: frame)
                    for field in current {
                        field.marking = .longTerm
                        field.longTermFrameIndex = Int(index)
                    }
                    currentIsLongTerm = true
                }
            }
            for store in stores { syncFrameMarking(store) }
        } else {
            let firstFieldIsShortTerm = interlace.secondField && fields.field(3 - parity).marking == .shortTerm
            if !firstFieldIsShortTerm {
                slidingWindowOverFrames(excluding: frame, sps: sps, currentFrameNum: frame.frameNum)
            }
        }
        if !currentIsLongTerm { for field in current { field.marking = .shortTerm } }
        for other in others { syncFrameMarking(other) }
        syncFrameMarking(frame)
        // A stream that marks more frames than max_num_ref_frames: drop the oldest short-term ones (bounded DPB).
        let limit = max(Int(sps.maxNumRefFrames), 1)
        while dpb.filter({ $0 !== frame && $0.isReference }).count + 1 > limit {
            guard dropOldestShortTermFrame(excluding: frame, sps: sps, currentFrameNum: frame.frameNum) else { break }
        }
        removeUnusedFramesKeeping(frame)
    }

    /// Drops frames neither referenced nor waiting for output, except `frame`.
    func removeUnusedFramesKeeping(_ frame: DecoderPicture) {
        let keep = frame.isNeededForOutput
        frame.isNeededForOutput = true
        removeUnusedFrames()
        frame.isNeededForOutput = keep
    }

    /// The sliding window (§8.2.5.3) over frames and field pairs: while the frames with a reference field fill
    /// max_num_ref_frames, the short-term one with the smallest FrameNumWrap stops being a reference.
    func slidingWindowOverFrames(excluding frame: DecoderPicture, sps: H264SequenceParameterSet, currentFrameNum: Int) {
        let limit = max(Int(sps.maxNumRefFrames), 1)
        while dpb.filter({ $0 !== frame && $0.isReference }).count >= limit {
            guard dropOldestShortTermFrame(excluding: frame, sps: sps, currentFrameNum: currentFrameNum) else { break }
        }
    }

    /// Unmarks the short-term fields of the frame with the smallest FrameNumWrap; false when there is none.
    func dropOldestShortTermFrame(excluding frame: DecoderPicture, sps: H264SequenceParameterSet, currentFrameNum: Int) -> Bool {
        let maxFrameNum = Int(sps.maxFrameNum)
        let oldest = dpb.filter { $0 !== frame && Self.hasField($0, marked: .shortTerm) }
            .min { Self.frameNumWrap($0.frameNum, current: currentFrameNum, max: maxFrameNum) < Self.frameNumWrap($1.frameNum, current: currentFrameNum, max: maxFrameNum) }
        guard let oldest else { return false }
        if let fields = oldest.fields {
            if fields.top.marking == .shortTerm { fields.top.marking = .unused }
            if fields.bottom.marking == .shortTerm { fields.bottom.marking = .unused }
            syncFrameMarking(oldest)
        } else {
            oldest.marking = .unused
        }
        return true
    }

    /// RefPicList0 and RefPicList1 of a slice of an interlaced stream (§8.2.4). A field: the frames ordered
    /// as §8.2.4.2.2 (P: FrameNumWrap descending) or §8.2.4.2.4 (B: picture order count around the current
    /// field's), then split into fields alternating parity from the current one (§8.2.4.2.5), long-term after
    /// short-term; then modified (§8.2.4.3 with field picture numbers). A frame: frames both of whose fields
    /// are references, as for progressive streams.
    func buildInterlacedReferenceLists(header: H264SliceHeader, sps: H264SequenceParameterSet,
                                       context: SliceContext) -> ([DecoderPicture?], [DecoderPicture?]) {
        let parity = context.picture.fieldParity
        let currentFrameNum = Int(header.frameNum)
        let maxFrameNum = Int(sps.maxFrameNum)
        let stores = dpb.filter { $0.fields != nil }
        if parity == 0 {
            let both: (DecoderPicture, DecoderPicture.Marking) -> Bool = { frame, marking in
                frame.fields!.top.marking == marking && frame.fields!.bottom.marking == marking
            }
            let shortTerm = stores.filter { both($0, .shortTerm) }
            let longTerm = stores.filter { both($0, .longTerm) }.sorted { $0.longTermFrameIndex < $1.longTermFrameIndex }
            if header.sliceType == .p {
                let ordered = shortTerm.sorted {
                    Self.frameNumWrap($0.frameNum, current: currentFrameNum, max: maxFrameNum)
                        > Self.frameNumWrap($1.frameNum, current: currentFrameNum, max: maxFrameNum)
                }
                let list = Self.sized(ordered + longTerm, count: context.referenceCount)
                return (modified(list, by: header.refPicListModificationL0, count: context.referenceCount, header: header, sps: sps), [])
            }
            let poc = context.picture.pictureOrderCount
            let before = shortTerm.filter { $0.pictureOrderCount <= poc }.sorted { $0.pictureOrderCount > $1.pictureOrderCount }
            let after = shortTerm.filter { $0.pictureOrderCount > poc }.sorted { $0.pictureOrderCount < $1.pictureOrderCount }
            let initial0 = before + after + longTerm
            var initial1 = after + before + longTerm
            if initial1.count > 1 && initial1.elementsEqual(initial0, by: ===) { initial1.swapAt(0, 1) }
            return (modified(Self.sized(initial0, count: context.referenceCount), by: header.refPicListModificationL0,
                             count: context.referenceCount, header: header, sps: sps),
                    modified(Self.sized(initial1, count: context.referenceCountL1), by: header.refPicListModificationL1,
                             count: context.referenceCountL1, header: header, sps: sps))
        }
        let shortTerm = stores.filter { Self.hasField($0, marked: .shortTerm) }
        let longTerm = stores.filter { Self.hasField($0, marked: .longTerm) }.sorted { $0.longTermFrameIndex < $1.longTermFrameIndex }
        let longFields = Self.alternate(longTerm, parity: parity, marking: .longTerm)
        if header.sliceType == .p {
            let ordered = shortTerm.sorted {
                Self.frameNumWrap($0.frameNum, current: currentFrameNum, max: maxFrameNum)
                    > Self.frameNumWrap($1.frameNum, current: currentFrameNum, max: maxFrameNum)
            }
            let list = Self.sized(Self.alternate(ordered, parity: parity, marking: .shortTerm) + longFields, count: context.referenceCount)
            return (modifiedFieldList(list, by: header.refPicListModificationL0, count: context.referenceCount, parity: parity,
                                      header: header, sps: sps), [])
        }
        // The picture order count of a frame entry: the smaller of its decoded fields' (the first field alone
        // while its second is being decoded).
        func entryPOC(_ frame: DecoderPicture) -> Int {
            min(frame.fields!.top.pictureOrderCount, frame.fields!.bottom.pictureOrderCount)
        }
        let poc = context.picture.pictureOrderCount
        let before = shortTerm.filter { entryPOC($0) <= poc }.sorted { entryPOC($0) > entryPOC($1) }
        let after = shortTerm.filter { entryPOC($0) > poc }.sorted { entryPOC($0) < entryPOC($1) }
        let initial0 = Self.alternate(before + after, parity: parity, marking: .shortTerm) + longFields
        var initial1 = Self.alternate(after + before, parity: parity, marking: .shortTerm) + longFields
        if initial1.count > 1 && initial1.elementsEqual(initial0, by: ===) { initial1.swapAt(0, 1) }
        return (modifiedFieldList(Self.sized(initial0, count: context.referenceCount), by: header.refPicListModificationL0,
                                  count: context.referenceCount, parity: parity, header: header, sps: sps),
                modifiedFieldList(Self.sized(initial1, count: context.referenceCountL1), by: header.refPicListModificationL1,
                                  count: context.referenceCountL1, parity: parity, header: header, sps: sps))
    }

    /// The fields of an ordered list of frames (§8.2.4.2.5): alternately the next field of the current
    /// parity and of the other one that has the marking, starting with the current parity; when one parity
    /// runs out, the rest of the other in order.
    static func alternate(_ frames: [DecoderPicture], parity: Int, marking: DecoderPicture.Marking) -> [DecoderPicture] {
        let same = frames.compactMap { $0.fields?.field(parity) }.filter { $0.marking == marking }
        let other = frames.compactMap { $0.fields?.field(3 - parity) }.filter { $0.marking == marking }
        var result: [DecoderPicture] = []
        var i = 0, j = 0
        while i < same.count || j < other.count {
            if i < same.count { result.append(same[i]); i += 1 }
            if j < other.count { result.append(other[j]); j += 1 }
        }
        return result
    }

    /// The modification of a field's reference picture list (§8.2.4.3): picture numbers of fields
    /// (CurrPicNum 2·frame_num + 1, MaxPicNum 2·MaxFrameNum; odd numbers the current parity).
    func modifiedFieldList(_ initial: [DecoderPicture?], by modification: H264RefPicListModification?, count: Int, parity: Int,
                           header: H264SliceHeader, sps: H264SequenceParameterSet) -> [DecoderPicture?] {
        guard let modification else { return initial }
        var list = initial
        let frameNum = Int(header.frameNum)
        let maxFrameNum = Int(sps.maxFrameNum)
        let currPicNum = 2 * frameNum + 1, maxPicNum = 2 * maxFrameNum
        var predicted = currPicNum
        let stores = dpb.filter { $0.fields != nil }
        for (refIdx, operation) in modification.operations.enumerated() where refIdx < count {
            var target: DecoderPicture?
            switch operation {
            case let .subtractShortTerm(difference), let .addShortTerm(difference):
                var noWrap: Int
                if case .subtractShortTerm = operation {
                    noWrap = predicted - (Int(difference) + 1)
                    if noWrap < 0 { noWrap += maxPicNum }
                } else {
                    noWrap = predicted + (Int(difference) + 1)
                    if noWrap >= maxPicNum { noWrap -= maxPicNum }
                }
                predicted = noWrap
                let picNum = noWrap > currPicNum ? noWrap - maxPicNum : noWrap
                let targetParity = picNum & 1 == 1 ? parity : 3 - parity
                let wrap = picNum >> 1
                target = stores.first {
                    Self.frameNumWrap($0.frameNum, current: frameNum, max: maxFrameNum) == wrap
                        && $0.fields?.field(targetParity).marking == .shortTerm
                }?.fields?.field(targetParity)
            case let .longTerm(longTermPicNum):
                let number = Int(longTermPicNum)
                let targetParity = number & 1 == 1 ? parity : 3 - parity
                target = stores.compactMap { $0.fields?.field(targetParity) }
                    .first { $0.marking == .longTerm && $0.longTermFrameIndex == number >> 1 }
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

import H264

extension NativeH264Decoder {
    /// Starts a picture of an interlaced stream (frame_mbs_only_flag 0): a frame picture, the first field of a
    /// new frame, or the second field of the frame whose first field was decoded last (§7.4.1.2.4, §C.4.5:
    /// opposite parity, same frame_num). Fields decode into half-height pictures of their own (``FieldPair``);
    /// picture order counts per field (§8.2.1).
    func startInterlacedPicture(header: H264SliceHeader, sps: H264SequenceParameterSet, pps: H264PictureParameterSet,
                                timestamp: Int64) throws(NativeH264DecoderError) {
        if activeSPS != sps { try activate(sps) }
        let parity = header.fieldPicFlag ? (header.bottomFieldFlag ? 2 : 1) : 0
        var frame: DecoderPicture
        var second = false
        if let pending = interlace.pendingFrame, parity != 0, parity != interlace.pendingParity,
           pending.frameNum == Int(header.frameNum), !header.isIDR || interlace.pendingIsIDR,
           pending.isNeededForOutput, dpb.contains(where: { $0 === pending }) {
            frame = pending
            second = true
        } else {
            finishUnpairedField()
            if header.isIDR {
                previousReferenceFrameNum = 0
            } else if dpb.contains(where: { $0.isReference }) || lastDecoded != nil {
                let maxFrameNum = Int(sps.maxFrameNum)
                let frameNum = Int(header.frameNum)
                if frameNum != previousReferenceFrameNum && frameNum != (previousReferenceFrameNum + 1) % maxFrameNum {
                    fillFrameNumGap(upTo: frameNum, sps: sps)
                    for gap in dpb where gap.fields == nil { giveFields(to: gap) }
                }
            }
            frame = obtainPicture(hasChroma: sps.chromaArrayType != 0)
            if frame.fields == nil { frame.fields = FieldPair(frame: frame) }
            identityCounter = (identityCounter + 4) & ~3
            frame.identity = identityCounter
            frame.frameNum = Int(header.frameNum)
            frame.marking = .unused
            frame.isNeededForOutput = false
            frame.isNonExisting = false
            frame.timestamp = timestamp
            frame.concealedMacroblocks = 0
            frame.problems = []
            frame.codedAsFields = parity != 0
            frame.firstFieldParity = parity
            for field in [frame.fields!.top, frame.fields!.bottom] {
                field.identity = identityCounter + field.fieldParity
                field.frameNum = frame.frameNum
                field.marking = .unused
                field.isNonExisting = false
                field.pictureOrderCount = Int.max
                field.problems = []
                field.timestamp = timestamp
            }
        }
        let count = pictureOrderCounter.pictureOrderCount(for: header, sequenceParameterSet: sps)
        guard let fields = frame.fields else { return }
        if let top = count.topFieldOrderCount { fields.top.pictureOrderCount = top }
        if let bottom = count.bottomFieldOrderCount { fields.bottom.pictureOrderCount = bottom }
        frame.pictureOrderCount = min(fields.top.pictureOrderCount, fields.bottom.pictureOrderCount)
        interlace.frame = frame
        interlace.secondField = second
        interlace.fieldPicture = parity != 0
        interlace.fieldScan = parity != 0
        interlace.mbaff = parity == 0 && sps.mbAdaptiveFrameFieldFlag
        if parity != 0 {
            heightInMbs = sps.frameHeightInMbs / 2
            current = fields.field(parity)
            fields.field(parity).frameNum = frame.frameNum
        } else {
            current = frame
        }
        currentFirstHeader = header
        currentSPS = sps
        currentPPS = pps
        currentHasMMCO5 = header.hasMemoryManagementControlOperation5
        currentTimestamp = timestamp
        pictureFirstSlice = sliceCounter &+ 1
        sliceFilters.removeAll(keepingCapacity: true)
        useMotion(ownMotion)
        resetListOneMotion()
    }

    /// Fields for a frame that has none (one inferred for a gap in frame_num): split from its samples, with its marking.
    func giveFields(to frame: DecoderPicture) {
        let fields = FieldPair(frame: frame)
        frame.fields = fields
        for field in [fields.top, fields.bottom] {
            FieldPair.split(frame, into: field)
            field.identity = frame.identity + field.fieldParity
            field.frameNum = frame.frameNum
            field.marking = frame.marking
            field.longTermFrameIndex = frame.longTermFrameIndex
            field.pictureOrderCount = frame.pictureOrderCount
            field.isNonExisting = frame.isNonExisting
            field.motion.clear()
        }
    }

    /// Outputs a frame whose first field never got its second (§C.4.5.3: an unpaired field is output alone).
    func finishUnpairedField() {
        guard let pending = interlace.pendingFrame else { return }
        interlace.pendingFrame = nil
        guard let index = dpb.firstIndex(where: { $0 === pending }) else { return }
        // A new SPS of another size emptied the DPB: the field went with it.
        dpb.remove(at: index)
        pending.isNeededForOutput = true
        store(pending)
    }

    /// Finishes a picture of an interlaced stream: conceals what no slice decoded, deblocks (§8.7, field rules
    /// for a field), marks references for a frame or a field (§8.2.5), weaves a field into its frame or splits
    /// a frame into its fields, and stores the frame in the DPB (after its first field without output,
    /// after its second for output).
    func finishInterlacedPicture() {
        guard let picture = current, let header = currentFirstHeader, let sps = currentSPS, let frame = interlace.frame,
              let fields = frame.fields else {
            current = nil
            currentFirstHeader = nil
            interlace.mbaff = false
            interlace.fieldScan = false
            if interlace.fieldPicture, let sps = activeSPS {
                interlace.fieldPicture = false
                interlace.fieldScan = false
                interlace.mbaff = false
                heightInMbs = sps.frameHeightInMbs
            }
            return
        }
        current = nil
        currentFirstHeader = nil
        let parity = picture.fieldParity
        let previous = lastDecoded.flatMap { parity == 0 ? $0 : $0.fields?.field(parity) } ?? dpb.last(where: { $0.isReference })
        var concealed = 0
        for mb in 0..<(widthInMbs * heightInMbs) where mbSlice[mb] < pictureFirstSlice {
            picture.conceal(mbX: mb % widthInMbs, mbY: mb / widthInMbs, from: previous)
            concealed += 1
        }
        storeMotion(of: picture)
        if parity == 0 {
            // Which macroblocks of the frame are field macroblocks, for direct prediction of later MBAFF B slices (§8.4.1.2.1).
            let count = min(widthInMbs * heightInMbs, picture.motion.macroblockCount)
            if interlace.mbaff {
                picture.motion.fieldMacroblocks.update(from: mbField, count: count)
            } else {
                picture.motion.fieldMacroblocks.update(repeating: 0, count: count)
            }
        }
        if !skipsInterlacedDeblockingForTesting { deblockPicture(picture) }
        interlace.fieldPicture = false
        interlace.fieldScan = false
        interlace.mbaff = false
        heightInMbs = sps.frameHeightInMbs
        frame.concealedMacroblocks += concealed
        if parity != 0 {
            FieldPair.weave(picture, into: frame)
            frame.problems += picture.problems
        } else {
            FieldPair.split(frame, into: fields.top)
            FieldPair.split(frame, into: fields.bottom)
        }
        if header.nalRefIDC != 0 {
            markInterlacedReferences(picture, frame: frame, header: header, sps: sps)
            previousReferenceFrameNum = currentHasMMCO5 ? 0 : frame.frameNum
            if currentHasMMCO5 {
                frame.frameNum = 0
                fields.top.frameNum = 0
                fields.bottom.frameNum = 0
            }
        }
        frame.pictureOrderCount = min(fields.top.pictureOrderCount, fields.bottom.pictureOrderCount)
        if header.isIDR && !interlace.secondField || currentHasMMCO5 {
            flushAll()
        }
        lastDecoded = frame
        if parity != 0 && !interlace.secondField {
            // The first field: the frame waits in the DPB (as a reference of the second field) for its second.
            interlace.pendingFrame = frame
            interlace.pendingParity = parity
            interlace.pendingIsIDR = header.isIDR
            frame.isNeededForOutput = true
            removeUnusedFrames()
            while dpb.count >= dpbSize { guard bump() else { break } }
            dpb.append(frame)
            return
        }
        interlace.pendingFrame = nil
        if let index = dpb.firstIndex(where: { $0 === frame }) { dpb.remove(at: index) }
        frame.isNeededForOutput = true
        store(frame)
    }

    /// The field order of an output frame, by the rule `inspect` applies to a stream's first picture
    /// (``H264FieldOrder``, without the picture timing SEI the decoder does not read): progressive for a
    /// progressive stream; for a frame coded as two fields, the parity of the first; for a frame picture of an
    /// interlaced stream, the field with the smaller order count first, both at once (progressive) when equal.
    /// - Parameter picture: the frame.
    /// - Returns: its field order.
    func fieldOrder(of picture: DecoderPicture) -> H264FieldOrder {
        guard let fields = picture.fields else { return .progressive }
        if picture.codedAsFields { return picture.firstFieldParity == 2 ? .bottomFieldFirst : .topFieldFirst }
        let top = fields.top.pictureOrderCount, bottom = fields.bottom.pictureOrderCount
        return top < bottom ? .topFieldFirst : top > bottom ? .bottomFieldFirst : .progressive
    }

    /// The vertical offset of a chroma vector (Table 8-10, in eighth chroma samples) when a field predicts
    /// from a field of the other parity: +2 from a top field into a bottom one, −2 the other way; 0 for frames.
    @inline(__always)
    static func chromaFieldOffset(_ reference: DecoderPicture, _ picture: DecoderPicture) -> Int {
        guard picture.fieldParity != 0, reference.fieldParity != 0 else { return 0 }
        return 2 * (picture.fieldParity - reference.fieldParity)
    }
}

import H264

extension NativeH264Decoder {
    /// Starts decoding a new picture with its first slice: activates the SPS (checking its size
    /// against the level before allocating), fills gaps in `frame_num` (§8.2.5.2) and computes the
    /// picture order count (§8.2.1).
    func startPicture(header: H264SliceHeader, sps: H264SequenceParameterSet, pps: H264PictureParameterSet,
                      timestamp: Int64) throws(NativeH264DecoderError) {
        if activeSPS != sps { try activate(sps) }
        if header.isIDR {
            previousReferenceFrameNum = 0
        } else if dpb.contains(where: { $0.isReference }) || lastDecoded != nil {
            let maxFrameNum = Int(sps.maxFrameNum)
            let frameNum = Int(header.frameNum)
            if frameNum != previousReferenceFrameNum && frameNum != (previousReferenceFrameNum + 1) % maxFrameNum {
                fillFrameNumGap(upTo: frameNum, sps: sps)
            }
        }
        let count = pictureOrderCounter.pictureOrderCount(for: header, sequenceParameterSet: sps)
        let picture = obtainPicture(hasChroma: sps.chromaArrayType != 0)
        identityCounter = (identityCounter + 4) & ~3
        picture.identity = identityCounter
        picture.frameNum = Int(header.frameNum)
        picture.pictureOrderCount = count.value
        picture.marking = .unused
        picture.isNeededForOutput = false
        picture.isNonExisting = false
        picture.timestamp = timestamp
        picture.concealedMacroblocks = 0
        picture.problems = []
        // The frame's motion is decoded straight into its own tables (nothing to copy when it is finished).
        useMotion(picture.motion.blockCount == widthInMbs * heightInMbs * 16 ? picture.motion : ownMotion)
        current = picture
        currentFirstHeader = header
        currentSPS = sps
        currentPPS = pps
        currentHasMMCO5 = header.hasMemoryManagementControlOperation5
        currentTimestamp = timestamp
        pictureFirstSlice = sliceCounter &+ 1
        sliceFilters.removeAll(keepingCapacity: true)
        resetListOneMotion()
    }

    /// Makes an SPS the active one: checks the size against its level (Table A-1) and, when the size
    /// changes, outputs every waiting frame and reallocates the per-macroblock state.
    func activate(_ sps: H264SequenceParameterSet) throws(NativeH264DecoderError) {
        let w = sps.picWidthInMbs, h = sps.frameHeightInMbs
        guard let limits = H264LevelLimits.limits(levelIDC: sps.levelIDC) else {
            throw .sizeBeyondLevel(widthInMbs: w, heightInMbs: h, levelIDC: sps.levelIDC)
        }
        let side = Int(Double(limits.maxFrameSize * 8).squareRoot())
        guard w * h <= limits.maxFrameSize, w * h <= maximumFrameSize, w <= side, h <= side else {
            throw .sizeBeyondLevel(widthInMbs: w, heightInMbs: h, levelIDC: sps.levelIDC)
        }
        if w != widthInMbs || h != heightInMbs || (activeSPS?.chromaArrayType == 0) != (sps.chromaArrayType == 0) {
            flushAll()
            dpb.removeAll()
            freePictures.removeAll()
            lastDecoded = nil
            widthInMbs = w
            heightInMbs = h
            let count = w * h
            freeTables()
            mbSlice = Self.table(count, Int32(0))
            mbKind = Self.table(count, UInt8(0))
            mbQP = Self.table(count, Int8(0))
            mbQPCb = Self.table(count, Int8(0))
            mbQPCr = Self.table(count, Int8(0))
            intraModes = Self.table(count * 16, Int8(2))
            lumaTotals = Self.table(count * 16, UInt8(0))
            ownMotion = PictureMotion(macroblockCount: count)
            useMotion(ownMotion)
            chromaTotals = Self.table(count * 8, UInt8(0))
            mbTransform8x8 = Self.table(count, UInt8(0))
            mbField = Self.table(count, UInt8(0))
        }
        var size = min(limits.maxDpbMbs / (w * h), 16)
        if let restriction = sps.vuiParameters?.bitstreamRestriction {
            size = max(Int(restriction.maxDecFrameBuffering), 1)
        }
        dpbSize = max(size, Int(sps.maxNumRefFrames), 1)
        activeSPS = sps
        activeSPSID = sps.id
    }

    /// A frame buffer of the active size: a free one when there is one, a new one otherwise.
    func obtainPicture(hasChroma: Bool) -> DecoderPicture {
        if let index = freePictures.lastIndex(where: { $0 !== lastDecoded && ($0.chromaWidth > 0) == hasChroma }) {
            return freePictures.remove(at: index)
        }
        return DecoderPicture(widthInMbs: widthInMbs, heightInMbs: heightInMbs, hasChroma: hasChroma)
    }

    /// Frames for the missing values of `frame_num` (§8.2.5.2): "non-existing" short-term references
    /// marked by the sliding window, their samples copied from the previous frame (concealment, as
    /// FFmpeg does), never output.
    func fillFrameNumGap(upTo frameNum: Int, sps: H264SequenceParameterSet) {
        let maxFrameNum = Int(sps.maxFrameNum)
        var unused = (previousReferenceFrameNum + 1) % maxFrameNum
        let gap = (frameNum - unused + maxFrameNum) % maxFrameNum
        let keep = max(Int(sps.maxNumRefFrames), 1)
        if gap > keep {
            for picture in dpb where picture.marking == .shortTerm { picture.marking = .unused }
            removeUnusedFrames()
            unused = (frameNum - keep + maxFrameNum) % maxFrameNum
        }
        while unused != frameNum {
            let picture = obtainPicture(hasChroma: sps.chromaArrayType != 0)
            if let source = lastDecoded { picture.copySamples(from: source) }
            identityCounter = (identityCounter + 4) & ~3
            picture.identity = identityCounter
            picture.frameNum = unused
            picture.pictureOrderCount = 0
            picture.isNonExisting = true
            picture.motion.clear()
            picture.isNeededForOutput = false
            picture.problems = []
            slidingWindow(sps: sps, currentFrameNum: unused)
            picture.marking = .shortTerm
            store(picture)
            previousReferenceFrameNum = unused
            unused = (unused + 1) % maxFrameNum
        }
    }

    /// Finishes the current picture: conceals the macroblocks no slice decoded, deblocks (§8.7),
    /// marks references (§8.2.5) and stores it in the DPB, outputting what the bumping process says.
    func finishPicture() {
        if currentSPS?.frameMbsOnlyFlag == false { finishInterlacedPicture(); return }
        guard let picture = current, let header = currentFirstHeader, let sps = currentSPS else { return }
        current = nil
        currentFirstHeader = nil
        let reference = lastDecoded ?? dpb.last(where: { $0.isReference })
        var concealed = 0
        for mb in 0..<(widthInMbs * heightInMbs) where mbSlice[mb] < pictureFirstSlice {
            picture.conceal(mbX: mb % widthInMbs, mbY: mb / widthInMbs, from: reference)
            concealed += 1
        }
        picture.concealedMacroblocks = concealed
        storeMotion(of: picture)
        deblockPicture(picture)
        if header.nalRefIDC != 0 {
            markReferences(picture, header: header, sps: sps)
            previousReferenceFrameNum = currentHasMMCO5 ? 0 : picture.frameNum
            if currentHasMMCO5 { picture.frameNum = 0 }
        }
        if header.isIDR || currentHasMMCO5 {
            flushAll()
        }
        picture.isNeededForOutput = true
        store(picture)
        lastDecoded = picture
    }
}

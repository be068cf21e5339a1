import Bitstream

extension H264SliceHeader {
    /// Writes `slice_header( )` (ITU-T H.264 §7.3.3), and `slice_id` for partition A.
    ///
    /// Which elements are written follows the same SPS and PPS conditions as the parse, so a parsed
    /// header writes back the bits it was read from.
    /// - Parameters:
    ///   - writer: the RBSP writer.
    ///   - sps: the SPS the PPS refers to.
    ///   - pps: the PPS named by ``picParameterSetID``.
    public func write(to writer: inout BitWriter, sequenceParameterSet sps: H264SequenceParameterSet,
                      pictureParameterSet pps: H264PictureParameterSet) {
        writer.ue(firstMbInSlice)
        writer.ue(UInt32(sliceType.rawValue) + (allSlicesHaveSameType ? 5 : 0))
        writer.ue(picParameterSetID)
        if sps.separateColourPlaneFlag { writer.u(2, UInt32(colourPlaneID ?? 0)) }
        writer.u(sps.frameNumBitCount, frameNum)
        if !sps.frameMbsOnlyFlag {
            writer.flag(fieldPicFlag)
            if fieldPicFlag { writer.flag(bottomFieldFlag) }
        }
        if isIDR { writer.ue(idrPicID ?? 0) }
        if sps.picOrderCntType == 0 {
            writer.u(sps.picOrderCntLsbBitCount, picOrderCntLsb)
            if pps.bottomFieldPicOrderInFramePresentFlag && !fieldPicFlag { writer.se(deltaPicOrderCntBottom) }
        }
        if sps.picOrderCntType == 1 && !sps.deltaPicOrderAlwaysZeroFlag {
            writer.se(deltaPicOrderCnt0)
            if pps.bottomFieldPicOrderInFramePresentFlag && !fieldPicFlag { writer.se(deltaPicOrderCnt1) }
        }
        if pps.redundantPicCntPresentFlag { writer.ue(redundantPicCnt) }
        if sliceType == .b { writer.flag(directSpatialMvPredFlag) }
        if sliceType.usesList0 {
            writer.flag(numRefIdxActiveOverrideFlag)
            if numRefIdxActiveOverrideFlag {
                writer.ue(numRefIdxL0ActiveMinus1)
                if sliceType == .b { writer.ue(numRefIdxL1ActiveMinus1) }
            }
        }
        if !sliceType.isIntra {
            writer.flag(refPicListModificationL0 != nil)
            refPicListModificationL0?.write(to: &writer)
        }
        if sliceType == .b {
            writer.flag(refPicListModificationL1 != nil)
            refPicListModificationL1?.write(to: &writer)
        }
        if (pps.weightedPredFlag && (sliceType == .p || sliceType == .sp)) || (pps.weightedBipredIDC == 1 && sliceType == .b) {
            (predWeightTable ?? H264PredWeightTable(lumaLog2WeightDenom: 0, chromaLog2WeightDenom: sps.chromaArrayType != 0 ? 0 : nil,
                                                    list0: [])).write(to: &writer)
        }
        if nalRefIDC != 0 {
            (decRefPicMarking ?? H264DecRefPicMarking()).write(to: &writer, isIDR: isIDR)
        }
        if pps.entropyCodingModeFlag && !sliceType.isIntra { writer.ue(cabacInitIDC) }
        writer.se(sliceQPDelta)
        if sliceType == .sp || sliceType == .si {
            if sliceType == .sp { writer.flag(spForSwitchFlag) }
            writer.se(sliceQSDelta)
        }
        if pps.deblockingFilterControlPresentFlag {
            writer.ue(disableDeblockingFilterIDC)
            if disableDeblockingFilterIDC != 1 {
                writer.se(sliceAlphaC0OffsetDiv2)
                writer.se(sliceBetaOffsetDiv2)
            }
        }
        if pps.numSliceGroupsMinus1 > 0, let rate = pps.sliceGroupMap?.changeRateMinus1 {
            let (bits, _) = Self.sliceGroupChangeCycleBits(picSizeInMapUnits: sps.picSizeInMapUnits, changeRate: Int(rate) + 1)
            writer.u(bits, sliceGroupChangeCycle ?? 0)
        }
        if nalUnitHeader.nalUnitType == .sliceDataPartitionA { writer.ue(sliceID ?? 0) }
    }
}

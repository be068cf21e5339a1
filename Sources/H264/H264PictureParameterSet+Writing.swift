import Bitstream

extension H264PictureParameterSet {
    /// Writes `pic_parameter_set_rbsp( )` (ITU-T H.264 §7.3.2.2) without the trailing bits.
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        writer.ue(id)
        writer.ue(seqParameterSetID)
        writer.flag(entropyCodingModeFlag)
        writer.flag(bottomFieldPicOrderInFramePresentFlag)
        writer.ue(numSliceGroupsMinus1)
        if numSliceGroupsMinus1 > 0 {
            (sliceGroupMap ?? .dispersed).write(to: &writer, numSliceGroupsMinus1: numSliceGroupsMinus1)
        }
        writer.ue(numRefIdxL0DefaultActiveMinus1)
        writer.ue(numRefIdxL1DefaultActiveMinus1)
        writer.flag(weightedPredFlag)
        writer.u(2, weightedBipredIDC)
        writer.se(picInitQPMinus26)
        writer.se(picInitQSMinus26)
        writer.se(chromaQPIndexOffset)
        writer.flag(deblockingFilterControlPresentFlag)
        writer.flag(constrainedIntraPredFlag)
        writer.flag(redundantPicCntPresentFlag)
        if let frext = fidelityRangeExtension {
            writer.flag(frext.transform8x8ModeFlag)
            writer.flag(frext.scalingMatrix != nil)
            frext.scalingMatrix?.write(to: &writer)
            writer.se(frext.secondChromaQPIndexOffset)
        }
    }

    /// The RBSP: `pic_parameter_set_rbsp( )` (§7.3.2.2) with its trailing bits.
    /// - Returns: the RBSP bytes (no NAL unit header, no emulation prevention).
    public func rbsp() -> [UInt8] {
        var writer = BitWriter()
        write(to: &writer)
        writer.rbspTrailingBits()
        return writer.bytes
    }

    /// The whole NAL unit: the header byte (``nalRefIDC``, type 8) and the EBSP of ``rbsp()``.
    /// - Returns: the NAL unit bytes, without start code.
    public func nalUnit() -> [UInt8] {
        H264RBSP.nalUnit(header: H264NALUnitHeader(nalRefIDC: nalRefIDC, nalUnitType: .pictureParameterSet), rbsp: rbsp())
    }
}

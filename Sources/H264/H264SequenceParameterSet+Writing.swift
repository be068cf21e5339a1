import Bitstream

extension H264SequenceParameterSet {
    /// Writes `seq_parameter_set_data( )` (ITU-T H.264 §7.3.2.1.1) without the trailing bits.
    ///
    /// Elements that the profile does not code (for example ``chromaFormatIDC`` outside
    /// ``profilesWithChromaFormat``) are not written.
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        writer.u(8, UInt32(profileIDC))
        writer.u(8, UInt32(constraintFlags.rawValue))
        writer.u(8, UInt32(levelIDC))
        writer.ue(id)
        if Self.profilesWithChromaFormat.contains(profileIDC) {
            writer.ue(chromaFormatIDC)
            if chromaFormatIDC == 3 { writer.flag(separateColourPlaneFlag) }
            writer.ue(bitDepthLumaMinus8)
            writer.ue(bitDepthChromaMinus8)
            writer.flag(qpprimeYZeroTransformBypassFlag)
            writer.flag(scalingMatrix != nil)
            scalingMatrix?.write(to: &writer)
        }
        writer.ue(log2MaxFrameNumMinus4)
        writer.ue(picOrderCntType)
        if picOrderCntType == 0 {
            writer.ue(log2MaxPicOrderCntLsbMinus4)
        } else if picOrderCntType == 1 {
            writer.flag(deltaPicOrderAlwaysZeroFlag)
            writer.se(offsetForNonRefPic)
            writer.se(offsetForTopToBottomField)
            writer.ue(UInt32(offsetForRefFrame.count))
            for offset in offsetForRefFrame { writer.se(offset) }
        }
        writer.ue(maxNumRefFrames)
        writer.flag(gapsInFrameNumValueAllowedFlag)
        writer.ue(picWidthInMbsMinus1)
        writer.ue(picHeightInMapUnitsMinus1)
        writer.flag(frameMbsOnlyFlag)
        if !frameMbsOnlyFlag { writer.flag(mbAdaptiveFrameFieldFlag) }
        writer.flag(direct8x8InferenceFlag)
        writer.flag(frameCropping != nil)
        if let crop = frameCropping {
            writer.ue(crop.left)
            writer.ue(crop.right)
            writer.ue(crop.top)
            writer.ue(crop.bottom)
        }
        writer.flag(vuiParameters != nil)
        vuiParameters?.write(to: &writer)
    }

    /// The RBSP: `seq_parameter_set_rbsp( )` (§7.3.2.1.1) with its trailing bits.
    /// - Returns: the RBSP bytes (no NAL unit header, no emulation prevention).
    public func rbsp() -> [UInt8] {
        var writer = BitWriter()
        write(to: &writer)
        writer.rbspTrailingBits()
        return writer.bytes
    }

    /// The whole NAL unit: the header byte (``nalRefIDC``, type 7) and the EBSP of ``rbsp()``.
    /// - Returns: the NAL unit bytes, without start code.
    public func nalUnit() -> [UInt8] {
        H264RBSP.nalUnit(header: H264NALUnitHeader(nalRefIDC: nalRefIDC, nalUnitType: .sequenceParameterSet), rbsp: rbsp())
    }
}

extension H264SequenceParameterSet {
    /// `ChromaArrayType` (§7.4.2.1.1): 0 for monochrome or separately coded colour planes,
    /// ``chromaFormatIDC`` otherwise.
    public var chromaArrayType: UInt32 { separateColourPlaneFlag ? 0 : chromaFormatIDC }

    /// `SubWidthC` (Table 6-1): horizontal chroma subsampling (2 for 4:2:0 and 4:2:2, 1 otherwise).
    public var subWidthC: Int { chromaFormatIDC == 1 || chromaFormatIDC == 2 ? 2 : 1 }

    /// `SubHeightC` (Table 6-1): vertical chroma subsampling (2 for 4:2:0, 1 otherwise).
    public var subHeightC: Int { chromaFormatIDC == 1 ? 2 : 1 }

    /// `BitDepthY`: 8…14.
    public var bitDepthLuma: Int { Int(bitDepthLumaMinus8) + 8 }

    /// `BitDepthC`: 8…14.
    public var bitDepthChroma: Int { Int(bitDepthChromaMinus8) + 8 }

    /// `MaxFrameNum` = 2^(`log2_max_frame_num_minus4` + 4).
    public var maxFrameNum: UInt32 { UInt32(1) << min(log2MaxFrameNumMinus4 + 4, 31) }

    /// The number of bits of `frame_num` in a slice header.
    public var frameNumBitCount: Int { Int(min(log2MaxFrameNumMinus4, 12)) + 4 }

    /// `MaxPicOrderCntLsb` = 2^(`log2_max_pic_order_cnt_lsb_minus4` + 4) (picture order count type 0).
    public var maxPicOrderCntLsb: UInt32 { UInt32(1) << min(log2MaxPicOrderCntLsbMinus4 + 4, 31) }

    /// The number of bits of `pic_order_cnt_lsb` in a slice header.
    public var picOrderCntLsbBitCount: Int { Int(min(log2MaxPicOrderCntLsbMinus4, 12)) + 4 }

    /// `ExpectedDeltaPerPicOrderCntCycle` (§7.4.2.1.1): the sum of ``offsetForRefFrame``.
    public var expectedDeltaPerPicOrderCntCycle: Int {
        offsetForRefFrame.reduce(0) { $0 &+ Int($1) }
    }

    /// `PicWidthInMbs`.
    public var picWidthInMbs: Int { Int(picWidthInMbsMinus1) + 1 }

    /// `PicHeightInMapUnits`.
    public var picHeightInMapUnits: Int { Int(picHeightInMapUnitsMinus1) + 1 }

    /// `PicSizeInMapUnits` = `PicWidthInMbs` · `PicHeightInMapUnits`.
    public var picSizeInMapUnits: Int { picWidthInMbs * picHeightInMapUnits }

    /// `FrameHeightInMbs` = (2 − `frame_mbs_only_flag`) · `PicHeightInMapUnits`.
    public var frameHeightInMbs: Int { (frameMbsOnlyFlag ? 1 : 2) * picHeightInMapUnits }

    /// The width of the decoded frame before cropping, in luma samples.
    public var codedWidth: Int { picWidthInMbs * 16 }

    /// The height of the decoded frame before cropping, in luma samples.
    public var codedHeight: Int { frameHeightInMbs * 16 }

    /// `CropUnitX` (§7.4.2.1.1): 1 for `ChromaArrayType` 0, `SubWidthC` otherwise.
    public var cropUnitX: Int { chromaArrayType == 0 ? 1 : subWidthC }

    /// `CropUnitY` (§7.4.2.1.1): (2 − `frame_mbs_only_flag`), times `SubHeightC` unless `ChromaArrayType` is 0.
    public var cropUnitY: Int { (chromaArrayType == 0 ? 1 : subHeightC) * (frameMbsOnlyFlag ? 1 : 2) }

    /// The displayed width in luma samples: ``codedWidth`` minus the left and right crop.
    public var width: Int {
        guard let crop = frameCropping else { return codedWidth }
        return max(0, codedWidth - cropUnitX * (Int(crop.left) + Int(crop.right)))
    }

    /// The displayed height in luma samples: ``codedHeight`` minus the top and bottom crop.
    public var height: Int {
        guard let crop = frameCropping else { return codedHeight }
        return max(0, codedHeight - cropUnitY * (Int(crop.top) + Int(crop.bottom)))
    }

    /// The frame rate `time_scale` / (2 · `num_units_in_tick`) from the VUI timing information
    /// (E.2.1, one frame = two field ticks), or `nil` when the SPS has none.
    public var frameRate: Double? {
        guard let timing = vuiParameters?.timingInfo, timing.numUnitsInTick > 0 else { return nil }
        return Double(timing.timeScale) / (2 * Double(timing.numUnitsInTick))
    }

    /// The profile name as FFmpeg's `ffprobe` prints it ("Baseline", "Constrained Baseline", "Main",
    /// "High", "High 10 Intra", "High 4:4:4 Predictive", "CAVLC 4:4:4" …), or the specification's
    /// name for the multi-view and scalable profiles FFmpeg does not name.
    public var profileName: String {
        let intra = constraintFlags.contains(.constraintSet3)
        switch profileIDC {
        case 66: return constraintFlags.contains(.constraintSet1) ? "Constrained Baseline" : "Baseline"
        case 77: return "Main"
        case 88: return "Extended"
        case 100: return "High"
        case 110: return intra ? "High 10 Intra" : "High 10"
        case 122: return intra ? "High 4:2:2 Intra" : "High 4:2:2"
        case 244: return intra ? "High 4:4:4 Intra" : "High 4:4:4 Predictive"
        case 44: return "CAVLC 4:4:4"
        case 144: return "High 4:4:4"
        case 83: return "Scalable Baseline"
        case 86: return intra ? "Scalable High Intra" : "Scalable High"
        case 118: return "Multiview High"
        case 128: return "Stereo High"
        case 134: return "MFC High"
        case 135: return "MFC Depth High"
        case 138: return "Multiview Depth High"
        case 139: return "Enhanced Multiview Depth High"
        default: return "profile_idc \(profileIDC)"
        }
    }

    /// Whether the level is 1b: `level_idc` 9, or 11 with `constraint_set3_flag` in the Baseline,
    /// Main and Extended profiles (§A.3.1, §A.3.2).
    public var isLevel1b: Bool {
        levelIDC == 9 || (levelIDC == 11 && constraintFlags.contains(.constraintSet3) && [66, 77, 88].contains(profileIDC))
    }

    /// The level as Table A-1 names it: "1b", "1", "1.1", "3", "3.1", "5.2" ….
    public var levelName: String {
        if isLevel1b { return "1b" }
        return levelIDC % 10 == 0 ? "\(levelIDC / 10)" : "\(levelIDC / 10).\(levelIDC % 10)"
    }
}

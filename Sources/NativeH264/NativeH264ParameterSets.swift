import H264

/// The SPS and PPS of the native encoder's Constrained Baseline streams (§7.3.2.1, §7.3.2.2), built
/// with the `H264` module's writers.
enum NativeH264ParameterSets {
    /// (level_idc, MaxMBPS, MaxFS) of Table A-1.
    static let levels: [(UInt8, Int, Int)] = [
        (10, 1485, 99), (11, 3000, 396), (12, 6000, 396), (13, 11880, 396), (20, 11880, 396), (21, 19800, 792),
        (22, 20250, 1620), (30, 40500, 1620), (31, 108000, 3600), (32, 216000, 5120), (40, 245760, 8192),
        (42, 522240, 8704), (50, 589824, 22080), (51, 983040, 36864), (52, 2073600, 36864),
    ]

    /// The lowest level whose frame size and macroblock rate hold the stream (Table A-1).
    static func level(macroblocks: Int, framesPerSecond: Int) -> UInt8 {
        let rate = macroblocks * framesPerSecond
        return levels.first { $0.2 >= macroblocks && $0.1 >= rate }?.0 ?? 52
    }

    /// The SPS: profile 66 with constraint_set0 and constraint_set1 (Constrained Baseline), POC type 2,
    /// one reference frame, frame cropping when the size is not a multiple of 16, VUI timing and
    /// bitstream restriction.
    static func sequenceParameterSet(width: Int, height: Int, framesPerSecond: Int) -> H264SequenceParameterSet {
        let widthInMbs = (width + 15) / 16, heightInMbs = (height + 15) / 16
        var sps = H264SequenceParameterSet(
            profileIDC: 66, constraintFlags: [.constraintSet0, .constraintSet1],
            levelIDC: level(macroblocks: widthInMbs * heightInMbs, framesPerSecond: framesPerSecond),
            picWidthInMbsMinus1: UInt32(widthInMbs - 1), picHeightInMapUnitsMinus1: UInt32(heightInMbs - 1))
        sps.picOrderCntType = 2
        sps.log2MaxFrameNumMinus4 = 0
        if widthInMbs * 16 != width || heightInMbs * 16 != height {
            // CropUnitX = CropUnitY = 2 for 4:2:0 frames (7-19, 7-20).
            sps.frameCropping = .init(right: UInt32((widthInMbs * 16 - width) / 2), bottom: UInt32((heightInMbs * 16 - height) / 2))
        }
        // VUI (Annex E): the frame rate (two ticks per frame: time_scale = 2 · fps, E.2.1) and
        // bitstream_restriction with max_num_reorder_frames 0, so decoders output each frame at once.
        sps.vuiParameters = H264VUIParameters(
            timingInfo: .init(numUnitsInTick: 1, timeScale: UInt32(2 * framesPerSecond), fixedFrameRateFlag: true),
            bitstreamRestriction: .init(maxNumReorderFrames: 0, maxDecFrameBuffering: 1))
        return sps
    }

    /// The PPS: CAVLC, one slice group, pic_init_qp 26, deblocking control present.
    static func pictureParameterSet() -> H264PictureParameterSet {
        var pps = H264PictureParameterSet(id: 0, seqParameterSetID: 0)
        pps.entropyCodingModeFlag = false
        pps.deblockingFilterControlPresentFlag = true
        return pps
    }
}

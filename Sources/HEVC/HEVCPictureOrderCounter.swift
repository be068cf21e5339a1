/// Derives picture order counts (ITU-T H.265 §8.3.1) for pictures fed in decoding order, so a
/// caller can put them in output order.
///
/// Feed it the header of the first slice segment of every picture and tell it about end-of-sequence
/// NAL units. It tracks `prevTid0Pic` (the previous picture with `TemporalId` 0 that is not a RASL,
/// RADL or sub-layer non-reference picture) and resets `PicOrderCntMsb` at IRAP pictures with
/// `NoRaslOutputFlag` = 1 (IDR, BLA, the first picture, the first after an end of sequence, and
/// CRA pictures when ``handleCRAAsBLA`` is set).
public struct HEVCPictureOrderCounter: Sendable, Hashable {
    /// What the counter derived for one picture.
    public struct Picture: Sendable, Hashable {
        /// `PicOrderCntVal`.
        public var pictureOrderCount: Int
        /// `NoRaslOutputFlag` of the picture (meaningful for IRAP pictures; `false` otherwise).
        public var noRaslOutputFlag: Bool
        /// Whether the picture starts a coded video sequence (an IRAP with `NoRaslOutputFlag` = 1).
        /// POC values are only comparable within one coded video sequence.
        public var startsCodedVideoSequence: Bool
        /// Whether the picture is a RASL picture whose IRAP has `NoRaslOutputFlag` = 1: a decoder
        /// drops it (§8.1.3), so it is never output.
        public var isSkippedRASL: Bool

        /// Creates a result.
        /// - Parameters:
        ///   - pictureOrderCount: `PicOrderCntVal`.
        ///   - noRaslOutputFlag: `NoRaslOutputFlag`.
        ///   - startsCodedVideoSequence: whether a coded video sequence starts here.
        ///   - isSkippedRASL: whether the picture is a RASL picture a decoder drops.
        public init(pictureOrderCount: Int, noRaslOutputFlag: Bool, startsCodedVideoSequence: Bool, isSkippedRASL: Bool) {
            self.pictureOrderCount = pictureOrderCount
            self.noRaslOutputFlag = noRaslOutputFlag
            self.startsCodedVideoSequence = startsCodedVideoSequence
            self.isSkippedRASL = isSkippedRASL
        }
    }

    /// `HandleCraAsBlaFlag`: treat every CRA picture as the start of a coded video sequence
    /// (set by external means, for example after seeking; §8.1.3).
    public var handleCRAAsBLA = false

    /// Whether the next picture is the first of the bitstream or follows an end of sequence.
    private var nextPictureStartsFresh = true
    /// `slice_pic_order_cnt_lsb` of `prevTid0Pic`.
    private var previousTid0Lsb = 0
    /// `PicOrderCntMsb` of `prevTid0Pic`.
    private var previousTid0Msb = 0
    /// `NoRaslOutputFlag` of the last IRAP picture.
    private var lastIRAPNoRaslOutputFlag = true
    /// The result for the current picture, returned again for its later slice segments.
    private var current: Picture?

    /// Creates a counter for the start of a bitstream.
    public init() {}

    /// Records an end-of-sequence NAL unit (`EOS_NUT`): the next picture gets `NoRaslOutputFlag` = 1.
    public mutating func endOfSequence() {
        nextPictureStartsFresh = true
    }

    /// Derives the picture order count of a picture (§8.3.1).
    /// - Parameters:
    ///   - header: the header of a slice segment; only a segment with `first_slice_segment_in_pic_flag`
    ///     = 1 advances the state, later segments get the current picture's result again.
    ///   - sps: the active SPS (for `MaxPicOrderCntLsb`).
    /// - Returns: the picture order count and how the picture relates to coded video sequences.
    public mutating func picture(for header: HEVCSliceSegmentHeader, sps: HEVCSequenceParameterSet) -> Picture {
        if !header.firstSliceSegmentInPicFlag, let current { return current }
        let type = header.nalUnitHeader.type
        let lsb = header.slicePicOrderCntLsb ?? 0
        let maxLsb = sps.maxPicOrderCntLsb
        var noRaslOutputFlag = false
        if type.isIRAP {
            noRaslOutputFlag = type.isIDR || type.isBLA || nextPictureStartsFresh || (type.isCRA && handleCRAAsBLA)
            lastIRAPNoRaslOutputFlag = noRaslOutputFlag
        }
        nextPictureStartsFresh = false
        let msb: Int
        if type.isIRAP && noRaslOutputFlag {
            msb = 0
        } else if lsb < previousTid0Lsb && previousTid0Lsb - lsb >= maxLsb / 2 {
            msb = previousTid0Msb + maxLsb
        } else if lsb > previousTid0Lsb && lsb - previousTid0Lsb > maxLsb / 2 {
            msb = previousTid0Msb - maxLsb
        } else {
            msb = previousTid0Msb
        }
        if header.nalUnitHeader.temporalID == 0 && !type.isRASL && !type.isRADL && !type.isSubLayerNonReference {
            previousTid0Lsb = lsb
            previousTid0Msb = msb
        }
        let picture = Picture(pictureOrderCount: msb + lsb, noRaslOutputFlag: noRaslOutputFlag,
                              startsCodedVideoSequence: type.isIRAP && noRaslOutputFlag,
                              isSkippedRASL: type.isRASL && lastIRAPNoRaslOutputFlag)
        current = picture
        return picture
    }
}

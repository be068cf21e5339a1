import Bitstream
import H264
import MediaCore
import NativeH264Kernels

/// A pure-Swift H.264 encoder, Constrained Baseline profile (CAVLC, 4:2:0, 8-bit).
///
/// Every `keyFrameInterval` frames (and when asked) a frame is coded as an IDR picture, the frames
/// between as P pictures predicting from the previous reconstructed picture (one reference frame,
/// frame_num counting up, POC type 2). One slice per picture, a fixed QP. In an IDR picture each
/// macroblock is I_16x16 (four modes) or I_NxN (nine 4x4 modes per block), whichever costs less in
/// SATD plus λ-weighted mode bits, with the cheapest of the four chroma modes, its residual through the 4x4 transform, the luma DC Hadamard and the chroma DC 2x2
/// transform, coded with CAVLC (§9.2); the in-loop deblocking filter (§8.7) runs on the
/// reconstruction, so ``EncodedPicture/reconstruction`` is the picture a conforming decoder outputs.
/// In a P picture a macroblock is P_Skip (§8.4.1.1) when the skip vector leaves no residual, otherwise
/// P_L0_16x16, P_L0_L0_16x8, P_L0_L0_8x16 or P_8x8 (8x8 sub-macroblocks) with searched quarter-sample vectors (predictors, diamond
/// search, half/quarter-sample refinement; §8.4.1.3's directional predictors), or intra when that costs less.
/// Any even size is accepted: sizes that are not multiples of 16 are padded and cropped (§7.4.2.1.1).
///
/// ```swift
/// var encoder = try NativeH264Encoder(width: 176, height: 144, quantisationParameter: 26, keyFrameInterval: 30)
/// let picture = try encoder.encode(frame)      // frame: a PixelBuffer of 176x144
/// file.write(picture.annexB)                   // SPS, PPS and the IDR slice, or a P slice, with start codes
/// ```
///
/// Not registered as a codec engine yet: sub-macroblock partitions below 8x8, rate control and the session properties come next.
public struct NativeH264Encoder: Sendable {
    /// One coded frame.
    public struct EncodedPicture: Sendable {
        /// The NAL units (SPS, PPS, then the IDR slice; or the P slice alone), each without start code.
        public var nalUnits: [[UInt8]]
        /// Whether the picture is an IDR picture.
        public var isKeyFrame: Bool
        /// The encoder's own reconstruction (deblocked, cropped to the frame size), I420: what a
        /// decoder shows for this picture, sample for sample.
        public var reconstruction: PixelBuffer

        /// How many macroblocks of each type the picture has.
        public var macroblockTypes: MacroblockTypeCounts

        /// The NAL units in Annex B form (four-byte start codes).
        public var annexB: [UInt8] { nalUnits.flatMap { [0, 0, 0, 1] + $0 } }
    }

    /// How many macroblocks of a picture were coded as each type (Tables 7-11 and 7-13).
    public struct MacroblockTypeCounts: Sendable, Hashable {
        /// I_16x16 macroblocks.
        public var intra16x16 = 0
        /// I_NxN (Intra_4x4) macroblocks.
        public var intra4x4 = 0
        /// P_L0_16x16 macroblocks.
        public var predicted16x16 = 0
        /// P_Skip macroblocks.
        public var skipped = 0
        /// P_L0_L0_16x8 macroblocks.
        public var predicted16x8 = 0
        /// P_L0_L0_8x16 macroblocks.
        public var predicted8x16 = 0
        /// P_8x8 macroblocks (every sub-macroblock P_L0_8x8).
        public var predicted8x8 = 0

        /// Creates counts.
        /// - Parameters:
        ///   - intra16x16: I_16x16 macroblocks.
        ///   - intra4x4: I_NxN macroblocks.
        ///   - predicted16x16: P_L0_16x16 macroblocks.
        ///   - skipped: P_Skip macroblocks.
        ///   - predicted16x8: P_L0_L0_16x8 macroblocks.
        ///   - predicted8x16: P_L0_L0_8x16 macroblocks.
        ///   - predicted8x8: P_8x8 macroblocks.
        public init(intra16x16: Int = 0, intra4x4: Int = 0, predicted16x16: Int = 0, skipped: Int = 0,
                    predicted16x8: Int = 0, predicted8x16: Int = 0, predicted8x8: Int = 0) {
            self.predicted8x8 = predicted8x8
            self.predicted16x8 = predicted16x8
            self.predicted8x16 = predicted8x16
            self.intra16x16 = intra16x16
            self.intra4x4 = intra4x4
            self.predicted16x16 = predicted16x16
            self.skipped = skipped
        }

        /// Adds another picture's counts.
        /// - Parameter other: the counts to add.
        public mutating func add(_ other: MacroblockTypeCounts) {
            intra16x16 += other.intra16x16
            intra4x4 += other.intra4x4
            predicted16x16 += other.predicted16x16
            skipped += other.skipped
            predicted16x8 += other.predicted16x8
            predicted8x16 += other.predicted8x16
            predicted8x8 += other.predicted8x8
        }
    }

    /// Frame width in luma samples.
    public let width: Int
    /// Frame height in luma samples.
    public let height: Int
    /// QPY of every macroblock, 0…51.
    public let quantisationParameter: Int
    /// The sequence parameter set every picture refers to.
    public let sequenceParameterSet: H264SequenceParameterSet
    /// The picture parameter set every picture refers to.
    public let pictureParameterSet: H264PictureParameterSet
    /// An IDR picture every this many frames (1: every frame).
    public let keyFrameInterval: Int

    let widthInMbs: Int, heightInMbs: Int
    /// IDR pictures so far (idr_pic_id alternates between consecutive ones).
    var keyFrameCount = 0
    /// Frames since the last IDR picture; frame_num is this modulo MaxFrameNum.
    var framesSinceKeyFrame = 0
    /// The previous picture's deblocked reconstruction, the reference of the next P picture.
    var reference: EncoderPicture?

    /// Creates an encoder.
    /// - Parameters:
    ///   - width: frame width, even, 2…8192.
    ///   - height: frame height, even, 2…8192.
    ///   - quantisationParameter: QPY, 0…51 (lower is better quality).
    ///   - framesPerSecond: the frame rate the level is chosen for (Table A-1).
    ///   - keyFrameInterval: an IDR picture every this many frames, 1… (1: all intra).
    /// - Throws: ``NativeH264EncoderError`` for an odd or out-of-range size, QP or key-frame interval.
    public init(width: Int, height: Int, quantisationParameter: Int, framesPerSecond: Int = 30,
                keyFrameInterval: Int = 1) throws(NativeH264EncoderError) {
        guard width >= 2, height >= 2, width <= 8192, height <= 8192, width % 2 == 0, height % 2 == 0 else {
            throw .unsupportedSize(width: width, height: height)
        }
        guard (0...51).contains(quantisationParameter) else { throw .quantisationParameterOutOfRange(quantisationParameter) }
        guard keyFrameInterval >= 1 else { throw .keyFrameIntervalOutOfRange(keyFrameInterval) }
        self.keyFrameInterval = keyFrameInterval
        self.width = width
        self.height = height
        self.quantisationParameter = quantisationParameter
        widthInMbs = (width + 15) / 16
        heightInMbs = (height + 15) / 16
        sequenceParameterSet = NativeH264ParameterSets.sequenceParameterSet(width: width, height: height,
                                                                            framesPerSecond: max(framesPerSecond, 1))
        pictureParameterSet = NativeH264ParameterSets.pictureParameterSet()
    }

    /// Encodes one frame: an IDR picture at the start, every ``keyFrameInterval`` frames and when
    /// forced; a P picture otherwise.
    /// - Parameters:
    ///   - frame: the frame, any of the 4:2:0 layouts, of the configured size.
    ///   - forcingKeyFrame: code this frame as an IDR picture whatever the interval says (the interval
    ///     counts from it).
    /// - Returns: the NAL units and the reconstruction.
    /// - Throws: ``NativeH264EncoderError/frameSizeMismatch(expectedWidth:expectedHeight:width:height:)``.
    public mutating func encode(_ frame: PixelBuffer, forcingKeyFrame: Bool = false) throws(NativeH264EncoderError) -> EncodedPicture {
        guard frame.width == width, frame.height == height else {
            throw .frameSizeMismatch(expectedWidth: width, expectedHeight: height, width: frame.width, height: frame.height)
        }
        let planar = frame.format == .i420 ? frame : frame.converted(to: .i420)
        var source = EncoderPicture(widthInMacroblocks: widthInMbs, heightInMacroblocks: heightInMbs)
        EncoderPicture.fill(&source.luma, width: source.width, height: source.height, from: planar.planes[0].bytes,
                            bytesPerRow: planar.planes[0].bytesPerRow, visibleWidth: width, visibleHeight: height)
        EncoderPicture.fill(&source.cb, width: source.chromaWidth, height: source.chromaHeight, from: planar.planes[1].bytes,
                            bytesPerRow: planar.planes[1].bytesPerRow, visibleWidth: width / 2, visibleHeight: height / 2)
        EncoderPicture.fill(&source.cr, width: source.chromaWidth, height: source.chromaHeight, from: planar.planes[2].bytes,
                            bytesPerRow: planar.planes[2].bytesPerRow, visibleWidth: width / 2, visibleHeight: height / 2)

        let isKeyFrame = forcingKeyFrame || reference == nil || framesSinceKeyFrame >= keyFrameInterval
        if isKeyFrame { framesSinceKeyFrame = 0 }
        var coder = SliceCoder(source: source, quantisationParameter: quantisationParameter, reference: isKeyFrame ? nil : reference)
        var writer = BitWriter(reservingCapacity: widthInMbs * heightInMbs * 64)
        let nalType: H264NALUnitType = isKeyFrame ? .idrSlice : .nonIDRSlice
        var header = H264SliceHeader(nalUnitHeader: H264NALUnitHeader(nalRefIDC: 3, nalUnitType: nalType), sliceType: isKeyFrame ? .i : .p)
        header.allSlicesHaveSameType = true
        // frame_num counts reference pictures since the IDR picture, modulo MaxFrameNum (§7.4.3);
        // with POC type 2 the output order follows from it (§8.2.1.3).
        header.frameNum = UInt32(framesSinceKeyFrame % (1 << (Int(sequenceParameterSet.log2MaxFrameNumMinus4) + 4)))
        if isKeyFrame {
            header.idrPicID = UInt32(keyFrameCount & 1)  // consecutive IDR pictures differ in idr_pic_id (§7.4.3)
            keyFrameCount += 1
        }
        header.sliceQPDelta = Int32(quantisationParameter - 26)
        header.write(to: &writer, sequenceParameterSet: sequenceParameterSet, pictureParameterSet: pictureParameterSet)
        coder.encodeMacroblocks(to: &writer)
        writer.rbspTrailingBits()
        coder.deblock()
        framesSinceKeyFrame += 1
        // The next P picture's reference, with its motion-search planes (not needed before an IDR).
        reference = framesSinceKeyFrame >= keyFrameInterval ? coder.reconstruction : coder.reconstruction.preparedAsReference(motionVectors: coder.motionVectors)

        // nal_unit( ): forbidden_zero_bit 0, nal_ref_idc 3, nal_unit_type 5 or 1, then the EBSP (§7.3.1).
        let slice = [UInt8(3 << 5) | nalType.rawValue] + EmulationPrevention.ebsp(fromRBSP: writer.bytes)
        let units = isKeyFrame ? [sequenceParameterSet.nalUnit(), pictureParameterSet.nalUnit(), slice] : [slice]
        return EncodedPicture(nalUnits: units, isKeyFrame: isKeyFrame,
                              reconstruction: coder.croppedReconstruction(width: width, height: height),
                              macroblockTypes: coder.macroblockTypes)
    }
}

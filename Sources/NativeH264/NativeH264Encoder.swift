import Bitstream
import CodecInterface
import H264
import MediaCore
import NativeH264Kernels

/// A pure-Swift H.264 encoder, Constrained Baseline profile (CAVLC, 4:2:0, 8-bit).
///
/// Every `keyFrameInterval` frames (and when asked) a frame is coded as an IDR picture, the frames
/// between as P pictures predicting from the previous reconstructed picture (one reference frame,
/// frame_num counting up, POC type 2). One slice per picture or several (``SliceLayout``: by count,
/// coded on up to ``threadCount`` threads, or by a maximum NAL unit size), a fixed QP. In an IDR picture each
/// macroblock is I_16x16 (four modes) or I_NxN (nine 4x4 modes per block), whichever costs less in
/// SATD plus λ-weighted mode bits, with the cheapest of the four chroma modes, its residual through the 4x4 transform, the luma DC Hadamard and the chroma DC 2x2
/// transform, coded with CAVLC (§9.2); the in-loop deblocking filter (§8.7) runs on the
/// reconstruction, so ``EncodedPicture/reconstruction`` is the picture a conforming decoder outputs.
/// In a P picture a macroblock is P_Skip (§8.4.1.1) when the skip vector leaves no residual; otherwise
/// the partitions (P_L0_16x16, P_L0_L0_16x8, P_L0_L0_8x16 or P_8x8 with 8x8 sub-macroblocks) and quarter-sample vectors of least
/// SATD + λ·bits (predictors, diamond search, half/quarter-sample refinement; §8.4.1.3's directional predictors)
/// are searched, and the final choice among P_Skip, those partitions with or without their residual, and intra
/// is the least rate-distortion cost: SSD of the reconstruction + 0.85·2^((QP − 12) / 3) · the bits the
/// CAVLC writers count for it.
/// Any even size is accepted: sizes that are not multiples of 16 are padded and cropped (§7.4.2.1.1).
///
/// ```swift
/// var encoder = try NativeH264Encoder(width: 176, height: 144, quantisationParameter: 26, keyFrameInterval: 30)
/// let picture = try encoder.encode(frame)      // frame: a PixelBuffer of 176x144
/// file.write(picture.annexB)                   // SPS, PPS and the IDR slice, or a P slice, with start codes
///
/// // Slices that each fit one RTP packet, or four slices coded on two threads:
/// var sliced = try NativeH264Encoder(width: 1280, height: 720, quantisationParameter: 26, sliceLayout: .maximumBytes(1200))
/// var threaded = try NativeH264Encoder(width: 1280, height: 720, quantisationParameter: 26, sliceLayout: .count(4), threadCount: 2)
/// ```
///
/// Rate control (``RateControl``): a constant QP, or an average bit rate with picture- and
/// macroblock-level QP (mb_qp_delta) and optional data-rate limits. As a codec engine it is `native`
/// (``NativeCodecEngine``).
public struct NativeH264Encoder: Sendable {
    /// One coded frame.
    public struct EncodedPicture: Sendable {
        /// The NAL units (SPS, PPS, then the IDR slices; or the P slices alone), each without start code.
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
    /// The slice QP of the last coded picture (before the first: the constant QP, or 26 with a bit rate).
    public private(set) var quantisationParameter: Int
    /// The sequence parameter set every picture refers to.
    public let sequenceParameterSet: H264SequenceParameterSet
    /// The picture parameter set every picture refers to.
    public let pictureParameterSet: H264PictureParameterSet
    /// An IDR picture every this many frames (1: every frame).
    public let keyFrameInterval: Int
    /// How QPs are chosen; change it on the running encoder with ``setAverageBitRate(_:)`` and ``setDataRateLimits(_:)``.
    public var rateControl: RateControl { controller.control }
    /// How each picture is cut into slices.
    public let sliceLayout: SliceLayout
    /// The most threads one picture is coded on: the slices of ``SliceLayout/count(_:)`` in parallel, then the
    /// deblocking filter as a wavefront over macroblock rows and the reference's half-sample planes in bands of rows.
    /// The output is the same for every thread count (the slices, not the threads, decide the bytes).
    public let threadCount: Int
    /// The speed against compression trade: which search, partitions and decisions the encoder uses.
    public let preset: EncoderPreset
    /// The preset of an encoder created without one: `veryfast`. Every preset decides P macroblocks by
    /// rate-distortion cost, so each holds a bit-rate target (on the live adaptation proof's noise camera, 160x120,
    /// `veryfast` makes 406 kbit/s of a 400 kbit/s target and 131 of 128; before, it decided by SATD alone and made
    /// 935 and 891).
    public static let defaultPreset = EncoderPreset.veryfast
    /// The tools of ``preset``.
    let tools: EncoderTools

    let widthInMbs: Int, heightInMbs: Int
    /// IDR pictures so far (idr_pic_id alternates between consecutive ones).
    var keyFrameCount = 0
    /// Frames since the last IDR picture; frame_num is this modulo MaxFrameNum.
    var framesSinceKeyFrame = 0
    /// The previous picture's deblocked reconstruction, the reference of the next P picture.
    var reference: EncoderPicture?
    /// The planes' memory of the reference before ``reference``: built over for the next reference
    /// once nothing else holds it (it keeps its pages mapped; a new allocation would fault them in again).
    var retiredReferenceStorage: ReferencePlaneStorage?
    /// The rate control's state.
    var controller: RateController
    /// The previous source picture, for rate control's inter cost estimate (kept only with rate control).
    var previousSource: EncoderPicture?

    /// Creates an encoder at a constant QP.
    /// - Parameters:
    ///   - width: frame width, even, 2…8192.
    ///   - height: frame height, even, 2…8192.
    ///   - quantisationParameter: QPY, 0…51 (lower is better quality).
    ///   - framesPerSecond: the frame rate the level is chosen for (Table A-1).
    ///   - keyFrameInterval: an IDR picture every this many frames, 1… (1: all intra).
    ///   - sliceLayout: how each picture is cut into slices (default one slice).
    ///   - threadCount: the most threads a picture is coded on, 1…``maximumThreadCount`` (default: every
    ///     available processor).
    ///   - preset: the speed against compression trade (default ``defaultPreset``).
    /// - Throws: ``NativeH264EncoderError`` for an odd or out-of-range size, QP, key-frame interval,
    ///   slice layout or thread count.
    public init(width: Int, height: Int, quantisationParameter: Int, framesPerSecond: Int = 30,
                keyFrameInterval: Int = 1,
                sliceLayout: SliceLayout = .single, threadCount: Int = NativeH264Encoder.availableProcessorCount,
                preset: EncoderPreset = NativeH264Encoder.defaultPreset) throws(NativeH264EncoderError) {
        try self.init(width: width, height: height, rateControl: .constantQuantisationParameter(quantisationParameter),
                      framesPerSecond: framesPerSecond, keyFrameInterval: keyFrameInterval,
                      sliceLayout: sliceLayout, threadCount: threadCount, preset: preset)
    }

    /// Creates an encoder with a rate control.
    /// - Parameters:
    ///   - width: frame width, even, 2…8192.
    ///   - height: frame height, even, 2…8192.
    ///   - rateControl: constant QP, or an average bit rate with optional data-rate limits.
    ///   - framesPerSecond: the frame rate the level is chosen for (Table A-1), and the frame duration
    ///     rate control assumes when pictures come without a time.
    ///   - keyFrameInterval: an IDR picture every this many frames, 1… (1: all intra).
    ///   - sliceLayout: how each picture is cut into slices (default one slice).
    ///   - threadCount: the most threads a picture is coded on, 1…``maximumThreadCount`` (default: every
    ///     available processor).
    ///   - preset: the speed against compression trade (default ``defaultPreset``).
    /// - Throws: ``NativeH264EncoderError`` for an odd or out-of-range size, QP, bit rate, limit,
    ///   key-frame interval, slice layout or thread count.
    public init(width: Int, height: Int, rateControl: RateControl, framesPerSecond: Int = 30,
                keyFrameInterval: Int = 1,
                sliceLayout: SliceLayout = .single, threadCount: Int = NativeH264Encoder.availableProcessorCount,
                preset: EncoderPreset = NativeH264Encoder.defaultPreset) throws(NativeH264EncoderError) {
        guard width >= 2, height >= 2, width <= 8192, height <= 8192, width % 2 == 0, height % 2 == 0 else {
            throw .unsupportedSize(width: width, height: height)
        }
        try rateControl.validate()
        guard keyFrameInterval >= 1 else { throw .keyFrameIntervalOutOfRange(keyFrameInterval) }
        try Self.validate(sliceLayout, threadCount: threadCount)
        self.sliceLayout = sliceLayout
        self.threadCount = threadCount
        self.preset = preset
        tools = EncoderTools(preset)
        self.keyFrameInterval = keyFrameInterval
        self.width = width
        self.height = height
        if case let .constantQuantisationParameter(qp) = rateControl.mode { quantisationParameter = qp } else { quantisationParameter = 26 }
        widthInMbs = (width + 15) / 16
        heightInMbs = (height + 15) / 16
        sequenceParameterSet = NativeH264ParameterSets.sequenceParameterSet(width: width, height: height,
                                                                            framesPerSecond: max(framesPerSecond, 1))
        pictureParameterSet = NativeH264ParameterSets.pictureParameterSet()
        controller = RateController(control: rateControl, framesPerSecond: Double(max(framesPerSecond, 1)),
                                    samplesPerPicture: width * height)
    }

    /// Encodes one frame: an IDR picture at the start, every ``keyFrameInterval`` frames and when
    /// forced; a P picture otherwise. With a bit rate or data-rate limits the picture's QP comes from
    /// the rate control, and a picture that would break a limit is coded again at a higher QP.
    /// - Parameters:
    ///   - frame: the frame, any of the 4:2:0 layouts, of the configured size.
    ///   - forcingKeyFrame: code this frame as an IDR picture whatever the interval says (the interval
    ///     counts from it).
    ///   - presentationTime: when the frame is shown; data-rate windows are measured in it. `nil`:
    ///     one frame period (1 / framesPerSecond) after the previous frame.
    /// - Returns: the NAL units and the reconstruction.
    /// - Throws: ``NativeH264EncoderError/frameSizeMismatch(expectedWidth:expectedHeight:width:height:)``.
    public mutating func encode(_ frame: PixelBuffer, forcingKeyFrame: Bool = false,
                                presentationTime: MediaTime? = nil) throws(NativeH264EncoderError) -> EncodedPicture {
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
        let control = controller.control
        var analysis = RateControlAnalysis()
        if control.needsAnalysis {
            analysis = RateControlAnalysis(source: source, previous: isKeyFrame ? nil : previousSource,
                                           strength: control.adaptiveQuantisationStrength)
            previousSource = source
        }
        var plan = controller.plan(isKeyFrame: isKeyFrame, analysis: analysis, time: presentationTime?.seconds)
        var coded = codePicture(source, isKeyFrame: isKeyFrame, qp: plan.qp, offsets: analysis.offsets)
        for _ in 0..<3 {
            guard let qp = controller.retryQP(for: plan, bytes: coded.byteCount, isKeyFrame: isKeyFrame, analysis: analysis) else { break }
            plan.qp = qp
            coded = codePicture(source, isKeyFrame: isKeyFrame, qp: qp, offsets: analysis.offsets)
        }
        controller.finish(plan, bytes: coded.byteCount, isKeyFrame: isKeyFrame, analysis: analysis)

        quantisationParameter = plan.qp
        if isKeyFrame {
            framesSinceKeyFrame = 0
            keyFrameCount += 1
        }
        framesSinceKeyFrame += 1
        // The next P picture's reference, with its motion-search planes (not needed before an IDR),
        // built in the memory of the planes retired last time when no slice coder holds them any more.
        let retiring = reference?.referencePlanes?.storage
        let recycled = isKnownUniquelyReferenced(&retiredReferenceStorage) ? retiredReferenceStorage : nil
        retiredReferenceStorage = nil
        reference = framesSinceKeyFrame >= keyFrameInterval ? coded.coder.reconstruction
            : coded.coder.reconstruction.preparedAsReference(motionVectors: coded.coder.motionVectors, recycling: recycled,
                                                             threads: threadCount)
        // Before an IDR no planes retire (the old reference had none): the spare is kept. When it was
        // just built into, the uniqueness check above passes it over until that reference retires.
        retiredReferenceStorage = retiring ?? recycled
        return EncodedPicture(nalUnits: coded.nalUnits, isKeyFrame: isKeyFrame,
                              reconstruction: coded.coder.croppedReconstruction(width: width, height: height),
                              macroblockTypes: coded.coder.macroblockTypes)
    }

    /// Changes the average bit rate from the next picture (a constant-QP encoder switches to it).
    /// - Parameter bitsPerSecond: the new target, positive.
    /// - Throws: ``NativeH264EncoderError/bitRateOutOfRange(_:)``.
    public mutating func setAverageBitRate(_ bitsPerSecond: Int) throws(NativeH264EncoderError) {
        guard bitsPerSecond > 0 else { throw .bitRateOutOfRange(bitsPerSecond) }
        controller.setAverageBitRate(bitsPerSecond)
    }

    /// Changes the data-rate limits from the next picture; windows reaching back before the change
    /// count the pictures already coded.
    /// - Parameter limits: at most `bytes` in any `seconds`, for each (empty: none).
    /// - Throws: ``NativeH264EncoderError/dataRateLimitOutOfRange(bytes:seconds:)``.
    public mutating func setDataRateLimits(_ limits: [DataRateLimit]) throws(NativeH264EncoderError) {
        try RateControl.validate(limits)
        controller.setDataRateLimits(limits)
    }

    /// One coded picture before it is accepted: its NAL units and the slice coder holding its reconstruction.
    struct CodedPicture {
        var nalUnits: [[UInt8]]
        var coder: SliceCoder
        /// Its size in Annex B form (four-byte start codes), as a stream or a packet holds it.
        var byteCount: Int { nalUnits.reduce(0) { $0 + 4 + $1.count } }
    }

    /// Codes the picture at a slice QP (and the macroblock offsets), without changing the encoder's state.
    func codePicture(_ source: EncoderPicture, isKeyFrame: Bool, qp: Int, offsets: [Int8]) -> CodedPicture {
        var coder = SliceCoder(source: source, quantisationParameter: qp, reference: isKeyFrame ? nil : reference,
                               quantisationOffsets: offsets, tools: tools)
        let nalType: H264NALUnitType = isKeyFrame ? .idrSlice : .nonIDRSlice
        var header = H264SliceHeader(nalUnitHeader: H264NALUnitHeader(nalRefIDC: 3, nalUnitType: nalType), sliceType: isKeyFrame ? .i : .p)
        header.allSlicesHaveSameType = true
        // frame_num counts reference pictures since the IDR picture, modulo MaxFrameNum (§7.4.3);
        // with POC type 2 the output order follows from it (§8.2.1.3).
        let framesSince = isKeyFrame ? 0 : framesSinceKeyFrame
        header.frameNum = UInt32(framesSince % (1 << (Int(sequenceParameterSet.log2MaxFrameNumMinus4) + 4)))
        if isKeyFrame {
            header.idrPicID = UInt32(keyFrameCount & 1)  // consecutive IDR pictures differ in idr_pic_id (§7.4.3)
        }
        header.sliceQPDelta = Int32(qp - 26)
        let slices = encodeSlices(&coder, header: header)
        coder.deblock(threads: threadCount)

        let units = (isKeyFrame ? [sequenceParameterSet.nalUnit(), pictureParameterSet.nalUnit()] : []) + slices
        return CodedPicture(nalUnits: units, coder: coder)
    }
}

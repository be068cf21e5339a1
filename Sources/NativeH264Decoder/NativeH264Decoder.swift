import Bitstream
import H264
import MediaCore

/// A pure-Swift H.264 decoder: Constrained Baseline, Main and High progressive (CAVLC or CABAC; I, P and B
/// slices, several slices in any order, several reference frames with list modification and adaptive marking,
/// direct prediction spatial and temporal, weighted prediction explicit and implicit, I_PCM, the 8x8 transform
/// and Intra 8x8 in every slice type, scaling matrices, 4:2:0 and 4:0:0); output in display order through the
/// decoded picture buffer's bumping process (§C.4.5.3).
///
/// Feed it NAL units in decoding order (without start codes or length prefixes) with a timestamp for
/// the access unit they belong to; it returns the frames that became ready for output. A picture
/// ends when the first slice of the next one arrives, when an access unit delimiter, SEI or parameter
/// set follows its slices, or when the caller says so (``endAccessUnit()``).
///
/// Field pictures (PAFF) are decoded (NativeH264Decoder+Fields.swift); MBAFF frames (§7.3.4 macroblock pairs) of I, P and B
/// slices, CAVLC or CABAC (NativeH264Decoder+MBAFF.swift, +MBAFFInter, +MBAFFDirect, +MBAFFDeblocking, ``MBAFFGeometry``).
/// Unsupported features (SP/SI slices, FMO with several slice groups, high bit depths) are refused with
/// ``NativeH264DecoderError/unsupportedFeature(_:nalIndex:)``. Redundant slices (`redundant_pic_cnt`
/// > 0) are ignored, which §C and Annex A allow a decoder to do when the primary picture is present.
/// Damaged slices never crash the decoder: what cannot be decoded is concealed and reported on the frame.
public final class NativeH264Decoder {
    /// The layout of output pictures.
    public let outputFormat: PixelFormat
    /// The largest frame accepted, in macroblocks (besides the level's MaxFS), bounding memory.
    public let maximumFrameSize: Int

    var parameterSets = H264ParameterSets()
    var nalIndex = -1
    var pictureOrderCounter = H264PictureOrderCounter()
    var rbspScratch: [UInt8] = []

    // Sequence state.
    var activeSPSID: UInt32?
    var activeSPS: H264SequenceParameterSet?
    @exclusivity(unchecked) var widthInMbs = 0
    @exclusivity(unchecked) var heightInMbs = 0
    var dpbSize = 16
    var dpb: [DecoderPicture] = []
    var freePictures: [DecoderPicture] = []
    var pendingOutput: [NativeH264DecodedFrame] = []
    var previousReferenceFrameNum = 0
    var identityCounter = 0
    @exclusivity(unchecked) var lastDecoded: DecoderPicture?
    var maxLongTermFrameIndex: Int?

    // The picture being decoded.
    var current: DecoderPicture?
    var currentFirstHeader: H264SliceHeader?
    var currentSPS: H264SequenceParameterSet?
    var currentPPS: H264PictureParameterSet?
    var currentHasMMCO5 = false
    @exclusivity(unchecked) var pictureFirstSlice: Int32 = 0
    var sliceCounter: Int32 = 0
    @exclusivity(unchecked) var sliceFilters: [SliceFilter] = []
    var currentTimestamp: Int64 = 0
    /// Field pictures of interlaced streams (NativeH264Decoder+Fields.swift).
    @exclusivity(unchecked) var interlace = InterlaceState()

    // Per-macroblock state of the current picture, in memory the decoder owns (allocated when an SPS of a
    // new size is activated, freed in deinit): read and written per macroblock, so no array bounds or
    // copy-on-write checks. The decoder is used by one caller at a time; dynamic exclusivity checks on
    // these properties cost a third of the decoding time, so they are off (`@exclusivity(unchecked)`).
    @exclusivity(unchecked) var mbSlice = NativeH264Decoder.table(1, Int32(0))
    @exclusivity(unchecked) var mbKind = NativeH264Decoder.table(1, UInt8(0))
    @exclusivity(unchecked) var mbQP = NativeH264Decoder.table(1, Int8(0))
    @exclusivity(unchecked) var mbQPCb = NativeH264Decoder.table(1, Int8(0))
    @exclusivity(unchecked) var mbQPCr = NativeH264Decoder.table(1, Int8(0))
    // Per 4x4 luma block (16 per macroblock, raster order inside the macroblock).
    @exclusivity(unchecked) var intraModes = NativeH264Decoder.table(1, Int8(0))
    @exclusivity(unchecked) var lumaTotals = NativeH264Decoder.table(1, UInt8(0))
    // The motion tables below point into a `PictureMotion`: the current frame's own (so that a finished frame keeps
    // its motion for direct prediction without a copy) or, for field pictures and before the first picture,
    // `ownMotion`, the decoder's (see `useMotion`).
    @exclusivity(unchecked) var refIndices: UnsafeMutablePointer<Int8>
    @exclusivity(unchecked) var refIdentities: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var motionX: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var motionY: UnsafeMutablePointer<Int32>
    // The same for list 1 (B slices); reset to "not used" (−1) when a picture starts.
    @exclusivity(unchecked) var refIndicesL1: UnsafeMutablePointer<Int8>
    @exclusivity(unchecked) var refIdentitiesL1: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var motionXL1: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var motionYL1: UnsafeMutablePointer<Int32>
    /// The decoder's own motion tables, of the active size: used by field pictures (whose motion is copied into
    /// the field when it is finished) and until the first frame.
    var ownMotion: PictureMotion
    // Per 4x4 chroma block (4 Cb then 4 Cr per macroblock).
    @exclusivity(unchecked) var chromaTotals = NativeH264Decoder.table(1, UInt8(0))
    // Per macroblock: transform_size_8x8_flag (bit 4) and which 8x8 luma blocks have coefficients (bits 0…3).
    @exclusivity(unchecked) var mbTransform8x8 = NativeH264Decoder.table(1, UInt8(0))
    /// Per macroblock of an MBAFF frame: mb_field_decoding_flag (1: a field macroblock).
    @exclusivity(unchecked) var mbField = NativeH264Decoder.table(1, UInt8(0))
    /// The neighbours of the current macroblock of an MBAFF frame (Table 6-4), set before it is decoded.
    @exclusivity(unchecked) var mbaffNeighbours = MBAFFMacroblockNeighbours()
    /// For tests (`@testable`): interlaced pictures are not deblocked, and the P and B slices of MBAFF frames are accepted
    /// whatever their disable_deblocking_filter_idc: the reconstruction alone, what `ffmpeg -skip_loop_filter all` outputs.
    var skipsInterlacedDeblockingForTesting = false

    // Scratch, allocated once.
    let coefficients: UnsafeMutablePointer<Int32>
    let refCache: UnsafeMutablePointer<Int8>
    let mvCache: UnsafeMutablePointer<Int32>
    let strengthScratch: UnsafeMutablePointer<Int>
    /// CABAC's context variables and neighbour tables (§9.3), grown with the picture size.
    let cabac = CABACNeighbourTables()
    /// LevelScale4x4 and LevelScale8x8 of the active scaling matrices (§8.5.9).
    let scaling = ScalingTables()
    /// The list-1 motion cache (B slices), laid out like `refCache` and `mvCache`.
    let refCacheL1: UnsafeMutablePointer<Int8>
    let mvCacheL1: UnsafeMutablePointer<Int32>
    /// Two predictions of one partition before they are averaged or weighted (§8.4.2.3): luma 16x16 per
    /// list, then Cb and Cr 8x8 per list.
    let predictionScratch: UnsafeMutablePointer<UInt8>

    /// Macroblock kinds in ``mbKind``.
    enum Kind {
        static let inter: UInt8 = 0
        static let intra16x16: UInt8 = 1
        static let intraNxN: UInt8 = 2
        static let pcm: UInt8 = 3
    }

    /// The deblocking controls of one slice (§7.4.3).
    struct SliceFilter {
        /// `disable_deblocking_filter_idc`.
        var disableIDC: Int
        /// FilterOffsetA.
        var offsetA: Int
        /// FilterOffsetB.
        var offsetB: Int
    }

    /// Creates a decoder.
    /// - Parameters:
    ///   - outputFormat: the layout of output pictures: ``PixelFormat/i420`` (default) or
    ///     ``PixelFormat/nv12`` (YV12 and NV21 are produced too, by plane order).
    ///   - maximumFrameSize: the largest frame to accept, in macroblocks (default 139264, the MaxFS of
    ///     level 6.2: 8192x4352); a larger SPS is refused with ``NativeH264DecoderError/sizeBeyondLevel(widthInMbs:heightInMbs:levelIDC:)``.
    public init(outputFormat: PixelFormat = .i420, maximumFrameSize: Int = 139_264) {
        self.outputFormat = outputFormat
        self.maximumFrameSize = maximumFrameSize
        let motion = PictureMotion(macroblockCount: 1), one = motion.blockCount
        ownMotion = motion
        refIndices = motion.referenceIndices
        refIdentities = motion.referenceIdentities
        motionX = motion.motionX
        motionY = motion.motionY
        refIndicesL1 = motion.referenceIndices + one
        refIdentitiesL1 = motion.referenceIdentities + one
        motionXL1 = motion.motionX + one
        motionYL1 = motion.motionY + one
        coefficients = .allocate(capacity: Self.coefficientCount)
        coefficients.initialize(repeating: 0, count: Self.coefficientCount)
        refCache = .allocate(capacity: 40)
        refCache.initialize(repeating: -2, count: 40)
        mvCache = .allocate(capacity: 80)
        mvCache.initialize(repeating: 0, count: 80)
        strengthScratch = .allocate(capacity: 32)
        strengthScratch.initialize(repeating: 0, count: 32)
        refCacheL1 = .allocate(capacity: 40)
        refCacheL1.initialize(repeating: -2, count: 40)
        mvCacheL1 = .allocate(capacity: 80)
        mvCacheL1.initialize(repeating: 0, count: 80)
        predictionScratch = .allocate(capacity: Self.predictionScratchCount)
        predictionScratch.initialize(repeating: 0, count: Self.predictionScratchCount)
    }

    deinit {
        freeTables()
        coefficients.deallocate()
        refCache.deallocate()
        mvCache.deallocate()
        strengthScratch.deallocate()
        refCacheL1.deallocate()
        mvCacheL1.deallocate()
        predictionScratch.deallocate()
    }

    /// A per-macroblock table of `count` entries (at least one), every entry `value`.
    static func table<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
        pointer.initialize(repeating: value, count: max(count, 1))
        return pointer
    }

    /// Frees the per-macroblock tables (trivial values: nothing to deinitialise).
    func freeTables() {
        mbSlice.deallocate(); mbKind.deallocate(); mbQP.deallocate(); mbQPCb.deallocate(); mbQPCr.deallocate()
        intraModes.deallocate(); lumaTotals.deallocate(); chromaTotals.deallocate(); mbTransform8x8.deallocate()
        mbField.deallocate()
    }

    /// Luma levels (16 blocks × 16, or 4 8x8 blocks × 64), Intra16x16 DC (16), chroma DC (2 × 4), chroma AC
    /// (8 × 16), one transform block (up to 8x8).
    static let coefficientCount = 256 + 16 + 8 + 128 + 64
    static let lumaDCOffset = 256
    static let chromaDCOffset = 272
    static let chromaACOffset = 280
    static let transformOffset = 408

    /// Decodes one NAL unit.
    /// - Parameters:
    ///   - nalUnit: the NAL unit, header byte first, emulation prevention bytes still in.
    ///   - timestamp: the timestamp of the access unit it belongs to (returned with the frame).
    /// - Returns: frames that became ready for output, in output order.
    /// - Throws: ``NativeH264DecoderError`` for a header that does not parse, a feature not supported or
    ///   a picture too large for its level. Frames finished before the error are kept and returned by
    ///   the next call.
    public func decode<Bytes: Collection>(nalUnit: Bytes, timestamp: Int64) throws(NativeH264DecoderError) -> [NativeH264DecodedFrame]
    where Bytes.Element == UInt8 {
        nalIndex += 1
        guard let first = nalUnit.first else { return takeOutput() }
        let type = first & 0x1F
        switch type {
        case 1, 5:
            try decodeSlice(Array(nalUnit), timestamp: timestamp)
        case 2, 3, 4:
            throw .unsupportedFeature("slice data partitioning (NAL unit type \(type), Extended profile)", nalIndex: nalIndex)
        case 7:
            finishPicture()
            do {
                let sps = try H264SequenceParameterSet(nalUnit: nalUnit)
                parameterSets.insert(sps)
            } catch { throw .header(error, nalIndex: nalIndex) }
        case 8:
            finishPicture()
            do {
                let pps = try H264PictureParameterSet(nalUnit: nalUnit, parameterSets: parameterSets)
                parameterSets.insert(pps)
            } catch { throw .header(error, nalIndex: nalIndex) }
        case 6, 9, 10, 11, 14, 15, 16, 17, 18:
            finishPicture()
            if type == 11 { flushAll() }
        default:
            break
        }
        return takeOutput()
    }

    /// Ends the current access unit: the picture being decoded is finished (missing macroblocks
    /// concealed, deblocked, marked) and stored.
    /// - Returns: frames that became ready for output.
    public func endAccessUnit() -> [NativeH264DecodedFrame] {
        finishPicture()
        return takeOutput()
    }

    /// Finishes the current picture and outputs every frame still waiting, in output order.
    /// - Returns: the remaining frames.
    public func flush() -> [NativeH264DecodedFrame] {
        finishPicture()
        flushAll()
        return takeOutput()
    }

    func takeOutput() -> [NativeH264DecodedFrame] {
        defer { pendingOutput.removeAll(keepingCapacity: true) }
        return pendingOutput
    }

    /// Parses a slice header and decodes the slice into the current picture, starting a new picture
    /// when the slice belongs to another one (§7.4.1.2.4).
    func decodeSlice(_ nal: [UInt8], timestamp: Int64) throws(NativeH264DecoderError) {
        let header: H264SliceHeader
        do {
            header = try H264SliceHeader(nalUnit: nal, parameterSets: parameterSets, scratch: &rbspScratch)
        } catch { throw .header(error, nalIndex: nalIndex) }
        guard let pps = parameterSets.pictureParameterSet(id: header.picParameterSetID),
              let sps = parameterSets.sequenceParameterSet(id: pps.seqParameterSetID) else {
            throw .noActivePicture(nalIndex: nalIndex)
        }
        if header.redundantPicCnt > 0 { return }
        try checkSupport(sps: sps, pps: pps, header: header)
        scaling.update(sps: sps, pps: pps)
        if let previous = currentFirstHeader, Self.startsNewPicture(header, after: previous, sps: sps) {
            finishPicture()
        }
        if current == nil {
            if !sps.frameMbsOnlyFlag {
                try startInterlacedPicture(header: header, sps: sps, pps: pps, timestamp: timestamp)
            } else {
                try startPicture(header: header, sps: sps, pps: pps, timestamp: timestamp)
            }
        }
        guard let picture = current else { return }
        // The slice's RBSP, padded with zeros for the bit reader.
        let payload = nal.dropFirst()
        var rbsp = EmulationPrevention.rbsp(fromEBSP: payload)
        let trailing = Self.rbspBitCount(rbsp)
        rbsp.append(contentsOf: repeatElement(0, count: 16))
        sliceCounter &+= 1
        sliceFilters.append(SliceFilter(disableIDC: Int(header.disableDeblockingFilterIDC),
                                        offsetA: Int(header.sliceAlphaC0OffsetDiv2) * 2, offsetB: Int(header.sliceBetaOffsetDiv2) * 2))
        var context = SliceContext(header: header, sps: sps, pps: pps, sliceIndex: sliceCounter, picture: picture)
        (context.referenceList, context.referenceList1) = buildReferenceLists(header: header, sps: sps, context: context)
        context.weights = predictionWeights(&context)
        rbsp.withUnsafeBufferPointer { buffer in
            var reader = SliceBitReader(base: buffer.baseAddress!, bitCount: trailing, position: header.bitCount)
            do throws(SliceDataError) {
                if interlace.mbaff && !pps.entropyCodingModeFlag {
                    try decodeSliceDataMBAFF(&reader, &context)
                } else if pps.entropyCodingModeFlag {
                    try decodeSliceDataCABAC(&reader, &context)
                } else {
                    try decodeSliceData(&reader, &context)
                }
            } catch {
                picture.problems.append(.sliceData(field: error.field, macroblock: context.currentMb, nalIndex: nalIndex))
            }
        }
        if context.missingReference {
            picture.problems.append(.sliceData(field: "ref_idx_l0 (no reference picture)", macroblock: context.currentMb, nalIndex: nalIndex))
        }
    }

    /// The RBSP bits before `rbsp_stop_one_bit` (§7.2 more_rbsp_data( )).
    static func rbspBitCount(_ rbsp: [UInt8]) -> Int {
        var index = rbsp.count - 1
        while index >= 0 && rbsp[index] == 0 { index -= 1 }
        guard index >= 0 else { return 0 }
        return index * 8 + 7 - rbsp[index].trailingZeroBitCount
    }

    /// Refuses what this decoder does not implement, naming it.
    func checkSupport(sps: H264SequenceParameterSet, pps: H264PictureParameterSet, header: H264SliceHeader) throws(NativeH264DecoderError) {
        switch header.sliceType {
        case .i, .p, .b: break
        case .sp, .si: throw .unsupportedFeature("SP/SI slices (Extended profile)", nalIndex: nalIndex)
        }
        if pps.numSliceGroupsMinus1 > 0 { throw .unsupportedFeature("FMO (num_slice_groups_minus1 \(pps.numSliceGroupsMinus1))", nalIndex: nalIndex) }
        if sps.bitDepthLuma != 8 || sps.bitDepthChroma != 8 { throw .unsupportedFeature("bit depth above 8", nalIndex: nalIndex) }
        if sps.chromaFormatIDC > 1 { throw .unsupportedFeature("chroma format \(sps.chromaFormatIDC == 2 ? "4:2:2" : "4:4:4")", nalIndex: nalIndex) }
        if sps.qpprimeYZeroTransformBypassFlag { throw .unsupportedFeature("lossless (qpprime_y_zero_transform_bypass_flag)", nalIndex: nalIndex) }
    }

    /// Whether a slice begins a new primary coded picture (§7.4.1.2.4).
    static func startsNewPicture(_ header: H264SliceHeader, after previous: H264SliceHeader, sps: H264SequenceParameterSet) -> Bool {
        if header.frameNum != previous.frameNum || header.picParameterSetID != previous.picParameterSetID { return true }
        if header.fieldPicFlag != previous.fieldPicFlag || header.bottomFieldFlag != previous.bottomFieldFlag { return true }
        if (header.nalRefIDC == 0) != (previous.nalRefIDC == 0) { return true }
        if header.isIDR != previous.isIDR { return true }
        if header.isIDR && header.idrPicID != previous.idrPicID { return true }
        if sps.picOrderCntType == 0 && (header.picOrderCntLsb != previous.picOrderCntLsb || header.deltaPicOrderCntBottom != previous.deltaPicOrderCntBottom) {
            return true
        }
        if sps.picOrderCntType == 1 && (header.deltaPicOrderCnt0 != previous.deltaPicOrderCnt0 || header.deltaPicOrderCnt1 != previous.deltaPicOrderCnt1) {
            return true
        }
        return false
    }
}

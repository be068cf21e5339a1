import H264

/// What the decoding of one slice's data needs besides the bits: its header and parameter sets,
/// its reference picture list and the running state of the macroblock loop (§7.3.4, §7.4.5).
///
/// The decoder's functions take it `inout` even where they only read it: it holds the header and both parameter sets
/// (several hundred bytes), and passed as a value to a function that is not inlined it is copied, with a retain for
/// each reference inside, at every call — several times per macroblock.
struct SliceContext {
    /// The slice header.
    let header: H264SliceHeader
    /// The SPS in use.
    let sps: H264SequenceParameterSet
    /// The PPS in use.
    let pps: H264PictureParameterSet
    /// The slice's number in the decoder (unique; marks the macroblocks it decoded).
    let sliceIndex: Int32
    /// The picture being decoded.
    let picture: DecoderPicture
    /// RefPicList0 (§8.2.4), `nil` entries for references that do not exist.
    var referenceList: [DecoderPicture?] = []
    /// RefPicList1 of a B slice (§8.2.4.2.3), `nil` entries for references that do not exist.
    var referenceList1: [DecoderPicture?] = []
    /// The weights of weighted sample prediction (§8.4.2.3), default when the PPS asks for none.
    var weights = PredictionWeights()
    /// QPY of the previous macroblock in the slice (§7.4.5).
    var qp: Int
    /// The macroblock being decoded.
    var currentMb = 0
    /// A reference index pointed at a picture that does not exist (concealed with another).
    var missingReference = false
    /// `num_ref_idx_l0_active_minus1` + 1.
    let referenceCount: Int
    /// P slice (inter macroblock types allowed).
    let isP: Bool
    /// B slice (B macroblock types, list 1, direct prediction).
    let isB: Bool
    /// `num_ref_idx_l1_active_minus1` + 1 (B slices).
    let referenceCountL1: Int
    /// `constrained_intra_pred_flag`.
    let constrainedIntra: Bool
    /// `chroma_qp_index_offset`.
    let chromaOffsetCb: Int
    /// `second_chroma_qp_index_offset`.
    let chromaOffsetCr: Int
    /// ChromaArrayType 1 (4:2:0), or 0 (4:0:0).
    let hasChroma: Bool

    /// Creates the context at the start of the slice's data.
    init(header: H264SliceHeader, sps: H264SequenceParameterSet, pps: H264PictureParameterSet, sliceIndex: Int32, picture: DecoderPicture) {
        self.header = header
        self.sps = sps
        self.pps = pps
        self.sliceIndex = sliceIndex
        self.picture = picture
        qp = 26 + Int(pps.picInitQPMinus26) + Int(header.sliceQPDelta)
        referenceCount = Int(header.numRefIdxL0ActiveMinus1) + 1
        isP = header.sliceType == .p
        isB = header.sliceType == .b
        referenceCountL1 = Int(header.numRefIdxL1ActiveMinus1) + 1
        constrainedIntra = pps.constrainedIntraPredFlag
        chromaOffsetCb = Int(pps.chromaQPIndexOffset)
        chromaOffsetCr = Int(pps.secondChromaQPIndexOffset)
        hasChroma = sps.chromaArrayType == 1
    }
}

/// One decoded frame in the decoded picture buffer (§8.2.4, §C.4): its samples at the coded size
/// (whole macroblocks) and what reference marking and output need to know about it.
final class DecoderPicture {
    /// Macroblocks in a row.
    let widthInMbs: Int
    /// Macroblock rows.
    let heightInMbs: Int
    /// Luma samples in a row (and the luma stride).
    let width: Int
    /// Luma rows.
    let height: Int
    /// Chroma samples in a row (and the chroma stride); 0 for 4:0:0.
    let chromaWidth: Int
    /// Chroma rows; 0 for 4:0:0.
    let chromaHeight: Int
    /// Luma samples.
    let luma: UnsafeMutablePointer<UInt8>
    /// Cb samples (one sample when 4:0:0).
    let cb: UnsafeMutablePointer<UInt8>
    /// Cr samples (one sample when 4:0:0).
    let cr: UnsafeMutablePointer<UInt8>

    /// A number unique among the decoder's pictures, for comparing references (deblocking, §8.7.2.1) and finding
    /// them again (temporal direct): a frame's is a multiple of 4, each of its fields' the frame's + ``fieldParity``
    /// (1 top, 2 bottom), whether the frame was decoded as fields, as an MBAFF or progressive frame, or inferred for a
    /// gap in frame_num; `identity & ~3` is the frame's.
    var identity = 0
    /// `frame_num`.
    var frameNum = 0
    /// `FrameNumWrap` (8-27), set while building reference lists.
    var frameNumWrap = 0
    /// `PicOrderCnt( )` of the frame.
    var pictureOrderCount = 0
    /// Short-term, long-term or not a reference.
    var marking = Marking.unused
    /// `LongTermFrameIdx` when long-term.
    var longTermFrameIndex = 0
    /// Waiting in the DPB to be output.
    var isNeededForOutput = false
    /// A frame inferred for a gap in `frame_num` (§8.2.5.2), never output.
    var isNonExisting = false
    /// The caller's timestamp of the access unit.
    var timestamp: Int64 = 0
    /// Macroblocks concealed (not decoded from the stream).
    var concealedMacroblocks = 0
    /// What went wrong while decoding it, if anything.
    var problems: [NativeH264DecoderError] = []
    /// Its motion, for direct prediction in B slices that take it as the co-located picture (§8.4.1.2.1).
    let motion: PictureMotion
    /// 0 for a frame, 1 for a top field, 2 for a bottom field (§7.4.3 field_pic_flag, bottom_field_flag).
    var fieldParity = 0
    /// In an interlaced stream, the two fields of this frame (decoded into, or split from, the frame).
    var fields: FieldPair?
    /// The frame a field belongs to.
    weak var frame: DecoderPicture?
    /// Whether the frame was coded as two field pictures (its co-located motion is then its fields').
    var codedAsFields = false
    /// The parity (1 top, 2 bottom) of a frame's first field when coded as fields.
    var firstFieldParity = 0

    /// Reference marking (§8.2.5).
    enum Marking: Equatable {
        /// Not used for reference.
        case unused
        /// Used for short-term reference.
        case shortTerm
        /// Used for long-term reference.
        case longTerm
    }

    /// Whether it is used for reference.
    var isReference: Bool { marking != .unused }

    /// Allocates a frame of the given size in macroblocks.
    /// - Parameters:
    ///   - widthInMbs: macroblocks in a row.
    ///   - heightInMbs: macroblock rows.
    ///   - hasChroma: false for 4:0:0.
    init(widthInMbs: Int, heightInMbs: Int, hasChroma: Bool) {
        self.widthInMbs = widthInMbs
        self.heightInMbs = heightInMbs
        width = widthInMbs * 16
        height = heightInMbs * 16
        chromaWidth = hasChroma ? widthInMbs * 8 : 0
        chromaHeight = hasChroma ? heightInMbs * 8 : 0
        luma = .allocate(capacity: width * height)
        luma.initialize(repeating: 0, count: width * height)
        let chromaCount = max(chromaWidth * chromaHeight, 1)
        cb = .allocate(capacity: chromaCount)
        cb.initialize(repeating: 128, count: chromaCount)
        cr = .allocate(capacity: chromaCount)
        cr.initialize(repeating: 128, count: chromaCount)
        motion = PictureMotion(macroblockCount: widthInMbs * heightInMbs)
    }

    deinit {
        luma.deallocate()
        cb.deallocate()
        cr.deallocate()
    }

    /// Copies every sample of another frame of the same size (concealment of a missing frame).
    /// - Parameter other: the frame to copy.
    func copySamples(from other: DecoderPicture) {
        guard other.width == width, other.height == height, other.chromaWidth == chromaWidth else { return }
        luma.update(from: other.luma, count: width * height)
        let chromaCount = max(chromaWidth * chromaHeight, 1)
        cb.update(from: other.cb, count: chromaCount)
        cr.update(from: other.cr, count: chromaCount)
    }

    /// Fills one macroblock from the co-located samples of another frame, or mid-grey without one
    /// (concealment of a lost macroblock).
    /// - Parameters:
    ///   - mbX: the macroblock column.
    ///   - mbY: the macroblock row.
    ///   - other: the frame to copy from, if any.
    func conceal(mbX: Int, mbY: Int, from other: DecoderPicture?) {
        let source = other.flatMap { $0.width == width && $0.height == height ? $0 : nil }
        for row in 0..<16 {
            let offset = (mbY * 16 + row) * width + mbX * 16
            if let source { (luma + offset).update(from: source.luma + offset, count: 16) } else { (luma + offset).update(repeating: 128, count: 16) }
        }
        guard chromaWidth > 0 else { return }
        for row in 0..<8 {
            let offset = (mbY * 8 + row) * chromaWidth + mbX * 8
            if let source {
                (cb + offset).update(from: source.cb + offset, count: 8)
                (cr + offset).update(from: source.cr + offset, count: 8)
            } else {
                (cb + offset).update(repeating: 128, count: 8)
                (cr + offset).update(repeating: 128, count: 8)
            }
        }
    }
}

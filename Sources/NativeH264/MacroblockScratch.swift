/// The working memory of the macroblock coder: every prediction, residual level and candidate block
/// one macroblock needs, allocated once per slice coder and reused by every macroblock, so coding a
/// macroblock makes no heap allocation.
///
/// Owned by one ``SliceCoder`` and used by one thread at a time (the coder that owns it); that is
/// what makes the unchecked `Sendable` sound.
final class MacroblockScratch: @unchecked Sendable {
    /// The chosen Intra_16x16 prediction, 16x16, stride 16.
    let intraPrediction: UnsafeMutablePointer<UInt8>
    /// An Intra_16x16 candidate prediction, 16x16, stride 16.
    let intraCandidate: UnsafeMutablePointer<UInt8>
    /// Luma levels of an Intra_16x16 macroblock, 16 blocks of 16 by luma4x4BlkIdx.
    let lumaLevels: UnsafeMutablePointer<Int32>
    /// The Intra_16x16 DC levels, raster of the 4x4 block grid (16).
    let lumaDC: UnsafeMutablePointer<Int32>
    /// The intra chroma predictions, Cb then Cr, 8x8 each, stride 8 (128).
    let chromaPrediction: UnsafeMutablePointer<UInt8>
    /// Candidate intra chroma predictions, same layout (128).
    let chromaCandidate: UnsafeMutablePointer<UInt8>
    /// Intra chroma AC levels, Cb then Cr, four blocks of 16 each (128).
    let chromaLevels: UnsafeMutablePointer<Int32>
    /// Intra chroma DC levels, Cb then Cr, four each (8).
    let chromaDC: UnsafeMutablePointer<Int32>
    /// One 4x4 block of coefficients being transformed (16).
    let block: UnsafeMutablePointer<Int32>
    /// One 4x4 block in zigzag order (16).
    let scanned: UnsafeMutablePointer<Int32>
    /// Intra_4x4 levels, 16 blocks of 16 by luma4x4BlkIdx (256).
    let intra4x4Levels: UnsafeMutablePointer<Int32>
    /// The chosen Intra_4x4 prediction of the current block, 4x4, stride 4.
    let intra4x4Prediction: UnsafeMutablePointer<UInt8>
    /// An Intra_4x4 candidate prediction, 4x4, stride 4.
    let intra4x4Candidate: UnsafeMutablePointer<UInt8>
    /// A motion search candidate block, 16x16, stride 16.
    let searchBlock: UnsafeMutablePointer<UInt8>
    /// The inter macroblock of the searched partitions.
    let inter = InterMacroblock()
    /// The inter macroblock of the skip vector (P_Skip's prediction), kept beside ``inter`` through the
    /// macroblock's decision so that P_Skip, when it wins after the search, is not predicted again.
    let skipInter = InterMacroblock()
    /// The coder's state before a P macroblock's trial codings (``SliceCoder/encodePredictedMacroblock(mbX:mbY:to:)``),
    /// put back after each; its arrays are allocated once.
    var snapshot = MacroblockSnapshot()
    /// The coder's state right after a P macroblock's intra trial, put in place when intra wins.
    var intraSnapshot = MacroblockSnapshot()
    /// The intra trial's reconstructed samples: luma 16x16 (stride 16), then Cb and Cr 8x8 (stride 8) (384).
    let intraSamples: UnsafeMutablePointer<UInt8>
    /// The syntax elements of a P macroblock's intra trial, replayed when intra wins.
    var intraRecorder = SyntaxBitRecorder()
    /// The syntax elements of a P macroblock's inter trial with its residual, replayed when it wins.
    var interRecorder = SyntaxBitRecorder()

    private let bytes: UnsafeMutablePointer<UInt8>
    private let words: UnsafeMutablePointer<Int32>

    init() {
        bytes = .allocate(capacity: 256 * 2 + 128 * 2 + 16 * 2 + 256 + 384)
        bytes.initialize(repeating: 0, count: 256 * 2 + 128 * 2 + 16 * 2 + 256 + 384)
        intraPrediction = bytes
        intraCandidate = bytes + 256
        chromaPrediction = bytes + 512
        chromaCandidate = bytes + 640
        intra4x4Prediction = bytes + 768
        intra4x4Candidate = bytes + 784
        searchBlock = bytes + 800
        intraSamples = bytes + 1056
        words = .allocate(capacity: 256 + 16 + 128 + 8 + 16 + 16 + 256)
        words.initialize(repeating: 0, count: 256 + 16 + 128 + 8 + 16 + 16 + 256)
        lumaLevels = words
        lumaDC = words + 256
        chromaLevels = words + 272
        chromaDC = words + 400
        block = words + 408
        scanned = words + 424
        intra4x4Levels = words + 440
    }

    deinit {
        bytes.deallocate()
        words.deallocate()
    }
}

import CodecInterface

/// The coding tools the native encoder uses at one ``EncoderPreset``: how far motion search goes,
/// which partitions it tries, and how the final macroblock decision is made. Every setting only changes
/// the encoder's choices, never the syntax: every preset's stream is Constrained Baseline and decodes
/// to the encoder's reconstruction.
///
/// The presets were chosen by measurement at 720p (speed against BD-rate, see
/// scripts/benchmark-native-h264.sh), in the spirit of x264's: the fast ones decide by SATD alone,
/// the slower ones by rate-distortion trials.
struct EncoderTools: Sendable, Hashable {
    /// Which partition shapes motion search tries.
    enum Partitions: Int, Sendable, Hashable {
        /// P_L0_16x16 only.
        case whole
        /// 16x16, then 8x8 when 16x16 is not cheap.
        case wholeAndQuarters
        /// 16x16, 8x8, and 16x8 / 8x16 when 8x8 beat 16x16.
        case all
    }

    /// Whether intra macroblocks are considered in P pictures, and how.
    enum IntraInPredicted: Sendable, Hashable {
        /// Never.
        case never
        /// Coded intra when the best Intra_16x16 SATD + 3λ is below the inter SATD cost (no trial).
        case bySATD
        /// Tried (coded, bits counted, reconstruction measured) when that SATD test passes, and chosen by
        /// rate-distortion cost.
        case trial
    }

    /// The partitions searched.
    var partitions: Partitions
    /// The 8x8 partitions are searched only when the best 16x16 SATD + λ·bits reaches this many λ
    /// (x264-style early termination; 0: always). Measured at 720p, QP 22–37: 128 λ costs +0.2 % BD-rate
    /// for 9 % less CPU; 64 λ saves nothing, 256 λ saves 20 % for +1.5–1.9 %.
    var quartersThreshold: Int
    /// The most one-sample steps of the whole-sample diamond search.
    var searchSteps: Int
    /// Whether sub-sample refinement goes to quarter samples (otherwise half samples only).
    var quarterSample: Bool
    /// The most steps of each sub-sample refinement (0: none).
    var refinementSteps: Int
    /// The final P macroblock decision by rate-distortion cost (SSD + λ·counted bits) among P_Skip, inter
    /// with and without residual (and intra, see ``intraInPredicted``); otherwise by SATD alone.
    var rateDistortionDecision: Bool
    /// Intra in P pictures.
    var intraInPredicted: IntraInPredicted
    /// Whether Intra_4x4 (I_NxN) is tried in IDR pictures.
    var intra4x4InKeyFrames: Bool
    /// Whether Intra_4x4 is tried for intra macroblocks of P pictures.
    var intra4x4InPredicted: Bool

    /// The tools of a preset.
    /// - Parameter preset: the preset.
    init(_ preset: EncoderPreset) {
        switch preset {
        case .ultrafast:
            self.init(partitions: .whole, searchSteps: 8, quarterSample: true, refinementSteps: 1, rateDistortionDecision: false,
                      intraInPredicted: .bySATD, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .superfast:
            self.init(partitions: .wholeAndQuarters, searchSteps: 16, quarterSample: true, refinementSteps: 1, rateDistortionDecision: false,
                      intraInPredicted: .bySATD, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .veryfast:
            self.init(partitions: .wholeAndQuarters, searchSteps: 16, quarterSample: true, refinementSteps: 1, rateDistortionDecision: true,
                      intraInPredicted: .bySATD, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .faster:
            self.init(partitions: .all, searchSteps: 32, quarterSample: true, refinementSteps: 2, rateDistortionDecision: true,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .medium:
            self.init(partitions: .all, quartersThreshold: 0, searchSteps: 64, quarterSample: true, refinementSteps: 4, rateDistortionDecision: true,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: true)
        case .fast:
            self.init(partitions: .all, searchSteps: 32, quarterSample: true, refinementSteps: 2, rateDistortionDecision: true,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: true)
        }
    }

    /// Every tool set explicitly.
    init(partitions: Partitions, quartersThreshold: Int = 128, searchSteps: Int, quarterSample: Bool, refinementSteps: Int, rateDistortionDecision: Bool,
         intraInPredicted: IntraInPredicted, intra4x4InKeyFrames: Bool, intra4x4InPredicted: Bool) {
        self.partitions = partitions
        self.quartersThreshold = quartersThreshold
        self.searchSteps = searchSteps
        self.quarterSample = quarterSample
        self.refinementSteps = refinementSteps
        self.rateDistortionDecision = rateDistortionDecision
        self.intraInPredicted = intraInPredicted
        self.intra4x4InKeyFrames = intra4x4InKeyFrames
        self.intra4x4InPredicted = intra4x4InPredicted
    }
}

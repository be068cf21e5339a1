import CodecInterface

/// The coding tools the native encoder uses at one ``EncoderPreset``: how far motion search goes,
/// which partitions it tries, and how the final macroblock decision is made. Every setting only changes
/// the encoder's choices, never the syntax: every preset's stream is Constrained Baseline and decodes
/// to the encoder's reconstruction.
///
/// The presets were chosen by measurement at 720p (speed against BD-rate, see
/// scripts/benchmark-native-h264.sh), in the spirit of x264's. Every preset makes the final decision of a P
/// macroblock by rate-distortion cost (SSD + λ(QP)·counted bits among P_Skip, the searched partitions with and
/// without their residual, and Intra_16x16 when its SATD is within reach): a decision by SATD alone does not
/// weigh the residual's bits, and once chose intra macroblocks on noise at QP 51 for 22× the bits of `fast`,
/// so that no bit-rate target below that floor could be held.
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

    /// Whether intra macroblocks are considered in P pictures.
    enum IntraInPredicted: Sendable, Hashable {
        /// Never.
        case never
        /// Tried (coded, bits counted, reconstruction measured) when the best Intra_16x16 SATD + 3λ is below
        /// the inter SATD cost, and chosen by rate-distortion cost against P_Skip and inter.
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
            // Re-chosen by measurement (720p foreman/cars/mandelbrot, 20 frames, QP 22/27/32/37, one thread, every
            // variant and openh264 in one run; BD-rate PSNR-Y against openh264): 16x16 and 8x8 when 16x16 reaches
            // 512 λ, 8 steps: 0.271x openh264, BD-rate −2.9 %; the former 16x16 only: 0.274x, −1.6 % (the same speed
            // within the run's noise). Dropped for costing more bits than the time they save: no Intra_4x4 in IDR
            // pictures (+8 % speed, +3.2 %), no intra trial in P pictures (+10 %, +2.2 %), half samples only (+2 %,
            // +0.7 %), 4 search steps (no faster, −1.3 %).
            self.init(partitions: .wholeAndQuarters, quartersThreshold: 512, searchSteps: 8, quarterSample: true, refinementSteps: 1,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .superfast:
            // Measured in the same run as ultrafast: 0.261x openh264, BD-rate −4.6 % (veryfast 0.239x, −4.9 %).
            self.init(partitions: .wholeAndQuarters, quartersThreshold: 256, searchSteps: 16, quarterSample: true, refinementSteps: 1,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .veryfast:
            self.init(partitions: .wholeAndQuarters, searchSteps: 16, quarterSample: true, refinementSteps: 1,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .faster:
            self.init(partitions: .all, searchSteps: 32, quarterSample: true, refinementSteps: 2,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: false)
        case .medium:
            self.init(partitions: .all, quartersThreshold: 0, searchSteps: 64, quarterSample: true, refinementSteps: 4,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: true)
        case .fast:
            self.init(partitions: .all, searchSteps: 32, quarterSample: true, refinementSteps: 2,
                      intraInPredicted: .trial, intra4x4InKeyFrames: true, intra4x4InPredicted: true)
        }
    }

    /// Every tool set explicitly.
    init(partitions: Partitions, quartersThreshold: Int = 128, searchSteps: Int, quarterSample: Bool, refinementSteps: Int,
         intraInPredicted: IntraInPredicted, intra4x4InKeyFrames: Bool, intra4x4InPredicted: Bool) {
        self.partitions = partitions
        self.quartersThreshold = quartersThreshold
        self.searchSteps = searchSteps
        self.quarterSample = quarterSample
        self.refinementSteps = refinementSteps
        self.intraInPredicted = intraInPredicted
        self.intra4x4InKeyFrames = intra4x4InKeyFrames
        self.intra4x4InPredicted = intra4x4InPredicted
    }
}

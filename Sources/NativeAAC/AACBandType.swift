/// What the codebook number of a section (`sect_cb`, ISO/IEC 14496-3 §4.5.2.3.3, Table 4.149) means
/// for the bands it covers.
enum AACBandType {
    /// `ZERO_HCB`: every coefficient is zero.
    static let zero: UInt8 = 0
    /// The largest spectral codebook (`ESC_HCB`).
    static let escape: UInt8 = 11
    /// Reserved.
    static let reserved: UInt8 = 12
    /// `NOISE_HCB`: perceptual noise substitution.
    static let noise: UInt8 = 13
    /// `INTENSITY_HCB2`: intensity stereo, out of phase.
    static let intensityOutOfPhase: UInt8 = 14
    /// `INTENSITY_HCB`: intensity stereo, in phase.
    static let intensityInPhase: UInt8 = 15

    /// Whether `type` is one of the two intensity codebooks.
    static func isIntensity(_ type: UInt8) -> Bool { type >= intensityOutOfPhase }
}

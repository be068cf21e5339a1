import CodecInterface
import MediaCore

/// What a ``CompressionConfiguration`` becomes for ``NativeH264Encoder``, and the properties the
/// native engine refuses (with ``CodecError/unsupportedProperty(_:reason:engine:)``).
struct NativeEngineSettings {
    /// The configuration.
    let configuration: CompressionConfiguration
    /// The engine's name, for errors.
    let engineName: String

    /// The QP of a session with neither a bit rate nor a quantiser (constant quality).
    static let defaultQuantisationParameter = 26
    /// The key-frame interval when the configuration gives none.
    static let defaultKeyFrameInterval = 250

    /// The H.264 levels of Table A-1 by name, as level_idc (1b as 9, ordered between 1 and 1.1).
    static let levels: [String: Int] = [
        "1": 10, "1b": 10, "1.1": 11, "1.2": 12, "1.3": 13, "2": 20, "2.1": 21, "2.2": 22, "3": 30, "3.1": 31,
        "3.2": 32, "4": 40, "4.1": 41, "4.2": 42, "5": 50, "5.1": 51, "5.2": 52, "6": 60, "6.1": 61, "6.2": 62,
    ]

    /// The whole frames per second the VUI and the level are written for.
    var framesPerSecond: Int { max(1, Int(configuration.expectedFrameRate.rounded())) }

    /// The key-frame interval in frames.
    var keyFrameInterval: Int { configuration.effectiveKeyFrameInterval ?? Self.defaultKeyFrameInterval }

    /// The encoder's rate control.
    var rateControl: NativeH264Encoder.RateControl {
        if let rate = configuration.averageBitRate {
            return .averageBitRate(rate, dataRateLimits: configuration.dataRateLimits)
        }
        var control = NativeH264Encoder.RateControl.constantQuantisationParameter(configuration.quantizer ?? Self.defaultQuantisationParameter)
        control.dataRateLimits = configuration.dataRateLimits
        return control
    }

    /// Refuses what the engine cannot honour.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)``.
    func check() throws(CodecError) {
        func refuse(_ property: ConfigurationProperty, _ reason: String) -> CodecError {
            .unsupportedProperty(property, reason: reason, engine: engineName)
        }
        if configuration.entropyMode == .cabac {
            throw refuse(.entropyMode, "CABAC is not coded; the native encoder writes CAVLC")
        }
        if !configuration.profileLevel.isBaseline {
            throw refuse(.profileLevel, "\(configuration.profileLevel.profileName) is not coded; the native encoder writes "
                + "Constrained Baseline only (use ProfileLevel(profile: .constrainedBaseline) or .h264Baseline)")
        }
        if configuration.allowFrameReordering && (configuration.maxBFrames ?? 1) > 0 {
            throw refuse(.maxBFrames,
                         "B-frames are not coded (I and P pictures only): set allowFrameReordering = false or maxBFrames = 0")
        }
        if let name = configuration.profileLevel.level {
            let sps = NativeH264ParameterSets.sequenceParameterSet(width: configuration.width, height: configuration.height,
                                                                   framesPerSecond: framesPerSecond)
            guard let asked = Self.levels[name] else { throw refuse(.profileLevel, "level \(name) is not an H.264 level") }
            if asked < Int(sps.levelIDC) {
                throw refuse(.profileLevel, "level \(name) is below \(sps.levelName), which \(configuration.width)x\(configuration.height) "
                    + "at \(framesPerSecond) frames per second needs (Table A-1)")
            }
        }
    }
}

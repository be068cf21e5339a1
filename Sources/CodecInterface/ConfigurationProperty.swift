/// A property of a session's configuration, named in ``CodecError/invalidConfiguration(property:reason:)``
/// so that callers (and tests) can match on it.
public enum ConfigurationProperty: String, Sendable, Hashable, CustomStringConvertible {
    /// ``CompressionConfiguration/codec`` or ``AudioEncoderConfiguration/codec``.
    case codec
    /// ``CompressionConfiguration/width`` and ``CompressionConfiguration/height``.
    case size
    /// ``CompressionConfiguration/profileLevel``.
    case profileLevel
    /// ``CompressionConfiguration/averageBitRate``.
    case averageBitRate
    /// ``CompressionConfiguration/dataRateLimits``.
    case dataRateLimits
    /// ``CompressionConfiguration/expectedFrameRate``.
    case expectedFrameRate
    /// ``CompressionConfiguration/maxKeyFrameInterval``.
    case maxKeyFrameInterval
    /// ``CompressionConfiguration/maxKeyFrameIntervalDuration``.
    case maxKeyFrameIntervalDuration
    /// ``CompressionConfiguration/maxBFrames``.
    case maxBFrames
    /// ``CompressionConfiguration/maxFrameDelayCount``.
    case maxFrameDelayCount
    /// ``CompressionConfiguration/quantizer``.
    case quantizer
    /// ``CompressionConfiguration/entropyMode``.
    case entropyMode
    /// ``CompressionConfiguration/preset``.
    case preset
    /// ``CompressionConfiguration/threadCount``.
    case threadCount
    /// ``AudioEncoderConfiguration/sampleRate``.
    case sampleRate
    /// ``AudioEncoderConfiguration/channelCount``.
    case channelCount
    /// ``AudioEncoderConfiguration/bitRate``.
    case bitRate
    /// ``CompressionConfiguration/engineName``.
    case engineName
    /// The capacity of a session's output buffer (the `outputCapacity` of its initialiser).
    case outputCapacity

    /// The property's name as written in Swift.
    public var description: String { rawValue }
}

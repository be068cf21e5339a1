import MediaCore

/// The properties of a compression session — the `kVTCompressionPropertyKey_…` values the seeds' apps
/// set, as one value. An engine that cannot honour a property throws when the session is created
/// (``CodecError/unsupportedProperty(_:reason:engine:)``); nothing is silently ignored.
public struct CompressionConfiguration: Sendable, Hashable {
    /// The codec to produce: ``CodecType/h264`` or ``CodecType/hevc``.
    public var codec: CodecType
    /// The picture width in pixels (even, for 4:2:0).
    public var width: Int
    /// The picture height in pixels (even, for 4:2:0).
    public var height: Int
    /// `kVTCompressionPropertyKey_RealTime`: no look-ahead, zero-latency tuning.
    public var realTime: Bool = false
    /// `kVTCompressionPropertyKey_ProfileLevel`.
    public var profileLevel: ProfileLevel
    /// `kVTCompressionPropertyKey_AllowFrameReordering`: `false` means no B-frames.
    public var allowFrameReordering: Bool = true
    /// The most B-frames in a row when reordering is allowed (`nil`: the engine's default).
    public var maxBFrames: Int?
    /// `kVTCompressionPropertyKey_MaxKeyFrameInterval`, in frames (`nil`: the engine's default).
    public var maxKeyFrameInterval: Int?
    /// `kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration`, in seconds.
    public var maxKeyFrameIntervalDuration: Double?
    /// `kVTCompressionPropertyKey_ExpectedFrameRate`, in frames per second; sets the time base and
    /// the VUI timing.
    public var expectedFrameRate: Double = 30
    /// `kVTCompressionPropertyKey_AverageBitRate`, in bits per second (`nil`: constant quality).
    public var averageBitRate: Int?
    /// `kVTCompressionPropertyKey_DataRateLimits`: pairs of (bytes, seconds); the tightest one sets the
    /// VBV max rate and buffer.
    public var dataRateLimits: [DataRateLimit] = []
    /// `kVTCompressionPropertyKey_H264EntropyMode` (H.264 only; `nil`: the profile's default).
    public var entropyMode: EntropyMode?
    /// `kVTCompressionPropertyKey_MaxFrameDelayCount`: the most frames the encoder may hold before
    /// emitting one (`nil`: unlimited).
    public var maxFrameDelayCount: Int?
    /// A constant quantiser instead of rate control (`streamkit encode --qp`).
    public var quantizer: Int?
    /// The speed against compression trade (`streamkit encode --preset`; `nil`: the engine's default).
    /// VideoToolbox's `RealTime`, `Quality` and `PrioritizeEncodingSpeedOverQuality` map onto it as
    /// ``EncoderPreset/init(realTime:prioritizeSpeedOverQuality:quality:)`` says.
    public var preset: EncoderPreset?
    /// How many threads the encoder may code on (`streamkit encode --threads N|auto`; `nil`: the engine's default —
    /// one slice, so one thread, for the native engine; libavcodec's choice for the others). The native engine cuts each
    /// picture into that many slices and codes them at the same time; see ``EncoderThreadCount``.
    public var threadCount: EncoderThreadCount?
    /// Which engines may serve the session.
    public var enginePreference: EnginePreference = .hardwarePreferred
    /// A specific engine by name (for example "x264"), or `nil` to let the registry choose.
    public var engineName: String?

    /// Creates a configuration with the defaults of VideoToolbox (reordering allowed, engine default
    /// key-frame interval, constant quality).
    /// - Parameters:
    ///   - codec: H.264 or H.265.
    ///   - width: picture width in pixels.
    ///   - height: picture height in pixels.
    ///   - profileLevel: the profile and level (defaults to the codec's main profile, auto level).
    public init(codec: CodecType, width: Int, height: Int, profileLevel: ProfileLevel? = nil) {
        self.codec = codec
        self.width = width
        self.height = height
        self.profileLevel = profileLevel ?? (codec == .hevc ? .hevcMain : .h264Main)
    }

    /// Checks the values that no engine could honour.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` naming the property.
    public func validate() throws(CodecError) {
        func fail(_ property: ConfigurationProperty, _ reason: String) -> CodecError {
            .invalidConfiguration(property: property, reason: reason)
        }
        guard codec.isVideo else { throw fail(.codec, "\(codec.rawValue) is not a video codec") }
        guard width > 0, height > 0 else { throw fail(.size, "\(width)x\(height) must be positive") }
        guard width % 2 == 0, height % 2 == 0 else {
            throw fail(.size, "\(width)x\(height): 4:2:0 needs an even width and height")
        }
        guard profileLevel.codec == codec else {
            throw fail(.profileLevel, "\(profileLevel) does not belong to \(codec.rawValue)")
        }
        if case .other = profileLevel.profile {
            throw fail(.profileLevel, "\(profileLevel) is not a profile sessions produce")
        }
        if let averageBitRate, averageBitRate <= 0 { throw fail(.averageBitRate, "must be positive, got \(averageBitRate)") }
        guard expectedFrameRate > 0, expectedFrameRate.isFinite else {
            throw fail(.expectedFrameRate, "must be positive, got \(expectedFrameRate)")
        }
        if let maxKeyFrameInterval, maxKeyFrameInterval <= 0 { throw fail(.maxKeyFrameInterval, "must be positive") }
        if let maxKeyFrameIntervalDuration, maxKeyFrameIntervalDuration <= 0 {
            throw fail(.maxKeyFrameIntervalDuration, "must be positive")
        }
        if let maxBFrames, maxBFrames < 0 { throw fail(.maxBFrames, "must not be negative") }
        if let maxFrameDelayCount, maxFrameDelayCount < 0 { throw fail(.maxFrameDelayCount, "must not be negative") }
        if let quantizer, !(0...51).contains(quantizer) { throw fail(.quantizer, "\(quantizer) outside 0...51") }
        if case let .count(count)? = threadCount, count < 1 { throw fail(.threadCount, "must be at least 1, got \(count)") }
        try Self.validate(dataRateLimits)
        if quantizer != nil {
            if averageBitRate != nil {
                throw fail(.quantizer, "excludes averageBitRate: a constant quantiser has no rate control")
            }
            if !dataRateLimits.isEmpty {
                throw fail(.quantizer, "excludes dataRateLimits: a constant quantiser ignores the rate limits")
            }
        }
        if entropyMode == .cabac && profileLevel.isBaseline {
            throw fail(.entropyMode, "CABAC is not allowed in the Baseline profile")
        }
        if codec == .hevc && entropyMode != nil { throw fail(.entropyMode, "applies to H.264 only") }
    }

    /// Checks data-rate limits (also when they change on a running session).
    /// - Parameter limits: the pairs to check.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for ``ConfigurationProperty/dataRateLimits``.
    public static func validate(_ limits: [DataRateLimit]) throws(CodecError) {
        for limit in limits where !(limit.bytes > 0 && limit.seconds > 0 && limit.seconds.isFinite) {
            throw .invalidConfiguration(property: .dataRateLimits,
                                        reason: "pair (\(limit.bytes) bytes, \(limit.seconds) s) must be positive")
        }
    }

    /// The key-frame interval in frames that the configuration asks for: the tighter of
    /// ``maxKeyFrameInterval`` and ``maxKeyFrameIntervalDuration`` × ``expectedFrameRate``.
    public var effectiveKeyFrameInterval: Int? {
        let byDuration = maxKeyFrameIntervalDuration.map { max(1, Int(($0 * expectedFrameRate).rounded(.down))) }
        switch (maxKeyFrameInterval, byDuration) {
        case let (frames?, duration?): return min(frames, duration)
        case let (frames?, nil): return frames
        case let (nil, duration?): return duration
        case (nil, nil): return nil
        }
    }

    /// Whether B-frames may be produced.
    public var usesBFrames: Bool {
        allowFrameReordering && (maxBFrames ?? 1) > 0 && !profileLevel.isBaseline
    }
}

/// One `kVTCompressionPropertyKey_DataRateLimits` pair: at most `bytes` in any window of `seconds`.
public struct DataRateLimit: Sendable, Hashable {
    /// The most bytes in the window.
    public var bytes: Int
    /// The window length in seconds.
    public var seconds: Double

    /// Creates a limit.
    /// - Parameters:
    ///   - bytes: the most bytes in the window.
    ///   - seconds: the window length.
    public init(bytes: Int, seconds: Double) {
        self.bytes = bytes
        self.seconds = seconds
    }

    /// The limit as a rate in bits per second.
    public var bitsPerSecond: Double { Double(bytes) * 8 / seconds }
}

/// `kVTH264EntropyMode_CAVLC` / `_CABAC`.
public enum EntropyMode: String, Sendable, Hashable {
    /// Context-adaptive variable-length coding (Baseline and up).
    case cavlc
    /// Context-adaptive binary arithmetic coding (Main and up).
    case cabac
}

/// Which engines may serve a session, like VideoToolbox's encoder specification keys.
public enum EnginePreference: String, Sendable, Hashable {
    /// Only a hardware encoder; fail clearly when the machine has none
    /// (`kVTVideoEncoderSpecification_RequireHardwareAcceleratedVideoEncoder`).
    case hardwareRequired
    /// Hardware first, software when there is none (`…EnableHardwareAcceleratedVideoEncoder`).
    case hardwarePreferred
    /// Software only.
    case software
}

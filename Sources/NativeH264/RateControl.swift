import CodecInterface

extension NativeH264Encoder {
    /// How the encoder chooses its quantisation: a constant QP, or an average bit rate that a
    /// one-pass model reaches by choosing each picture's QP (and each macroblock's offset from it),
    /// optionally under data-rate limits (no window of the stream holds more than so many bytes).
    ///
    /// One pass, no look-ahead and no frame delay: every decision uses the pictures coded so far and
    /// the picture in hand, so it suits real-time sessions.
    ///
    /// ```swift
    /// var encoder = try NativeH264Encoder(width: 640, height: 480,
    ///                                     rateControl: .averageBitRate(1_000_000, dataRateLimits: [DataRateLimit(bytes: 250_000, seconds: 1)]),
    ///                                     keyFrameInterval: 30)
    /// ```
    public struct RateControl: Sendable, Hashable {
        /// What sets the picture QP.
        public enum Mode: Sendable, Hashable {
            /// Every picture at this QPY (0…51); macroblocks take the same QP unless adaptive
            /// quantisation is on.
            case constantQuantisationParameter(Int)
            /// A picture QP chosen to average this many bits per second.
            case averageBitRate(Int)
        }

        /// What sets the picture QP.
        public var mode: Mode
        /// Windows no part of the stream may exceed (`kVTCompressionPropertyKey_DataRateLimits`): for
        /// each, at most `bytes` in any `seconds`. The encoder raises the QP, and as a last resort codes
        /// a picture again at a higher QP, to keep them.
        public var dataRateLimits: [DataRateLimit]
        /// Adaptive quantisation: how many QP steps a macroblock's offset moves per doubling of its
        /// luma variance against the picture's mean (0: every macroblock at the picture QP). Flat
        /// areas, where coarse steps show most, get a lower QP; busy ones a higher QP.
        public var adaptiveQuantisationStrength: Double

        /// Creates a rate control.
        /// - Parameters:
        ///   - mode: constant QP or average bit rate.
        ///   - dataRateLimits: windows the stream must not exceed (empty: none).
        ///   - adaptiveQuantisationStrength: QP steps per doubling of a macroblock's variance (0…4; 0: off).
        public init(mode: Mode, dataRateLimits: [DataRateLimit] = [], adaptiveQuantisationStrength: Double = 0) {
            self.mode = mode
            self.dataRateLimits = dataRateLimits
            self.adaptiveQuantisationStrength = adaptiveQuantisationStrength
        }

        /// Every picture and macroblock at one QP: the encoder's behaviour without rate control.
        /// - Parameter quantisationParameter: QPY, 0…51.
        /// - Returns: the rate control.
        public static func constantQuantisationParameter(_ quantisationParameter: Int) -> RateControl {
            RateControl(mode: .constantQuantisationParameter(quantisationParameter))
        }

        /// An average bit rate, with adaptive quantisation at strength 1 by default.
        /// - Parameters:
        ///   - bitsPerSecond: the target, bits per second (positive).
        ///   - dataRateLimits: windows the stream must not exceed.
        ///   - adaptiveQuantisationStrength: QP steps per doubling of a macroblock's variance (0: off).
        /// - Returns: the rate control.
        public static func averageBitRate(_ bitsPerSecond: Int, dataRateLimits: [DataRateLimit] = [],
                                          adaptiveQuantisationStrength: Double = 1) -> RateControl {
            RateControl(mode: .averageBitRate(bitsPerSecond), dataRateLimits: dataRateLimits,
                        adaptiveQuantisationStrength: adaptiveQuantisationStrength)
        }

        /// Whether pictures need ``RateControlAnalysis`` (anything but a plain constant QP).
        var needsAnalysis: Bool {
            if case .constantQuantisationParameter = mode { return !dataRateLimits.isEmpty || adaptiveQuantisationStrength > 0 }
            return true
        }

        /// Checks the values.
        /// - Throws: ``NativeH264EncoderError`` naming the bad value.
        func validate() throws(NativeH264EncoderError) {
            switch mode {
            case let .constantQuantisationParameter(qp):
                guard (0...51).contains(qp) else { throw .quantisationParameterOutOfRange(qp) }
            case let .averageBitRate(rate):
                guard rate > 0 else { throw .bitRateOutOfRange(rate) }
            }
            try Self.validate(dataRateLimits)
            guard adaptiveQuantisationStrength.isFinite, (0...4).contains(adaptiveQuantisationStrength) else {
                throw .adaptiveQuantisationStrengthOutOfRange(adaptiveQuantisationStrength)
            }
        }

        /// Checks data-rate limits.
        /// - Parameter limits: the limits.
        /// - Throws: ``NativeH264EncoderError/dataRateLimitOutOfRange(bytes:seconds:)``.
        static func validate(_ limits: [DataRateLimit]) throws(NativeH264EncoderError) {
            for limit in limits where !(limit.bytes > 0 && limit.seconds > 0 && limit.seconds.isFinite && limit.seconds <= 3600) {
                throw .dataRateLimitOutOfRange(bytes: limit.bytes, seconds: limit.seconds)
            }
        }
    }
}

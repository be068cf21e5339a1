/// Why the native encoder refused a configuration or a frame.
public enum NativeH264EncoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The picture size is not supported: 4:2:0 needs an even width and height (frame cropping
    /// removes whole chroma samples, §7.4.2.1.1), at least 2x2 and at most 8192x8192.
    case unsupportedSize(width: Int, height: Int)
    /// The quantisation parameter is outside 0…51.
    case quantisationParameterOutOfRange(Int)
    /// The key-frame interval is below 1.
    case keyFrameIntervalOutOfRange(Int)
    /// A frame's size differs from the configured one.
    case frameSizeMismatch(expectedWidth: Int, expectedHeight: Int, width: Int, height: Int)
    /// An average bit rate that is not positive.
    case bitRateOutOfRange(Int)
    /// A data-rate limit whose bytes or seconds are not positive (or the window is over an hour).
    case dataRateLimitOutOfRange(bytes: Int, seconds: Double)
    /// An adaptive quantisation strength outside 0…4.
    case adaptiveQuantisationStrengthOutOfRange(Double)
    /// ``NativeH264Encoder/SliceLayout/count(_:)`` asked for fewer than one slice.
    case sliceCountOutOfRange(Int)
    /// ``NativeH264Encoder/SliceLayout/maximumBytes(_:)`` is below
    /// ``NativeH264Encoder/SliceLayout/smallestMaximumBytes``.
    case maximumSliceBytesOutOfRange(Int)
    /// The thread count is outside 1…``NativeH264Encoder/maximumThreadCount``.
    case threadCountOutOfRange(Int)

    /// A one-line description.
    public var description: String {
        switch self {
        case let .unsupportedSize(width, height):
            "native H.264 encoder: \(width)x\(height) is not supported (even width and height, 2…8192)"
        case let .quantisationParameterOutOfRange(qp): "native H.264 encoder: QP \(qp) is outside 0…51"
        case let .keyFrameIntervalOutOfRange(interval): "native H.264 encoder: key-frame interval \(interval) is below 1"
        case let .frameSizeMismatch(ew, eh, w, h): "native H.264 encoder: frame is \(w)x\(h), the encoder was configured for \(ew)x\(eh)"
        case let .bitRateOutOfRange(rate): "native H.264 encoder: average bit rate \(rate) is not positive"
        case let .dataRateLimitOutOfRange(bytes, seconds):
            "native H.264 encoder: data-rate limit (\(bytes) bytes, \(seconds) s) needs positive bytes and 0 < seconds ≤ 3600"
        case let .adaptiveQuantisationStrengthOutOfRange(strength): "native H.264 encoder: adaptive quantisation strength \(strength) is outside 0…4"
        case let .sliceCountOutOfRange(count): "native H.264 encoder: slice count \(count) is below 1"
        case let .maximumSliceBytesOutOfRange(limit):
            "native H.264 encoder: a maximum slice size of \(limit) bytes is below \(NativeH264Encoder.SliceLayout.smallestMaximumBytes)"
        case let .threadCountOutOfRange(count): "native H.264 encoder: thread count \(count) is outside 1…\(NativeH264Encoder.maximumThreadCount)"
        }
    }
}

import AAC
import Bitstream
import MediaCore

/// Why a container writer (``Y4MWriter``, ``WAVWriter``, ``AnnexBWriter``, ``ADTSWriter``) could not
/// write, naming the frame where there is one.
public enum ContainerWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Writing to the sink failed.
    case io(ContainerIOError)
    /// `write` was called after `finish()`.
    case alreadyFinished
    /// The writer's settings cannot be written in this container; the text says which and why.
    case invalidConfiguration(String)
    /// A frame does not fit the stream (size, sample rate, channel count, codec); the text says how.
    case frameMismatch(frameIndex: Int, reason: String)
    /// The frame's codec cannot be written in this container.
    case unsupportedCodec(CodecType, frameIndex: Int)
    /// The frame's length-prefixed NAL units are malformed.
    case malformedFrame(frameIndex: Int, AVCC.Failure)
    /// No ADTS header can describe the frame (rate, channels, profile or length).
    case adtsHeader(frameIndex: Int, ADTSError)
    /// The frame's AudioSpecificConfig cannot be parsed.
    case audioSpecificConfig(frameIndex: Int, AudioSpecificConfigError)
    /// The file would outgrow the container's size fields (4 GiB for RIFF/WAV).
    case sizeLimitExceeded(limit: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .io(error): return "write failed: \(error)"
        case .alreadyFinished: return "the writer was already finished"
        case let .invalidConfiguration(text): return "invalid writer configuration: \(text)"
        case let .frameMismatch(index, reason): return "frame \(index) does not fit the stream: \(reason)"
        case let .unsupportedCodec(codec, index): return "frame \(index): codec \(codec) cannot be written in this container"
        case let .malformedFrame(index, failure): return "frame \(index): \(failure)"
        case let .adtsHeader(index, error): return "frame \(index): no ADTS header: \(error)"
        case let .audioSpecificConfig(index, error): return "frame \(index): AudioSpecificConfig: \(error)"
        case let .sizeLimitExceeded(limit): return "the file would exceed the container's limit of \(limit) bytes"
        }
    }
}

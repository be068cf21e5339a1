import Capture
import Codecs

/// Why a ``LivePipeline`` could not run.
public enum LiveError: Error, Sendable, CustomStringConvertible {
    /// The pipeline has neither a video nor an audio source.
    case noSource
    /// ``LivePipeline/run()`` was called a second time.
    case alreadyRun
    /// The video source's picture size differs from the configuration's.
    case sizeMismatch(source: String, width: Int, height: Int, configured: (width: Int, height: Int))
    /// An encoder could not be made or failed.
    case encoder(CodecError)
    /// A source failed.
    case source(CaptureError)
    /// An encoded source (a file sent as it is, a received stream) failed.
    case input(LiveSourceError)
    /// A destination asked for a dedicated rendition after the pipeline had started (its encoder would begin
    /// mid-stream); it was refused.
    case renditionAfterStart(String)

    /// The error in words.
    public var description: String {
        switch self {
        case .noSource: return "the pipeline has no video and no audio source"
        case .alreadyRun: return "the pipeline has run already; make a new one"
        case let .sizeMismatch(source, width, height, configured):
            return "\(source) delivers \(width)x\(height) pictures, but the encoder is configured for \(configured.width)x\(configured.height)"
        case let .encoder(error): return "encoder: \(error)"
        case let .source(error): return "source: \(error)"
        case let .input(error): return "\(error)"
        case let .renditionAfterStart(name):
            return "\(name) asked for a rendition of its own after the pipeline had started; add it before run() or use the main rendition"
        }
    }
}

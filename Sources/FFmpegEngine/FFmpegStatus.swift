#if FFmpeg
import CFFmpeg
import CodecInterface

/// Turns libav* return codes into ``CodecError`` values that carry FFmpeg's own message
/// (`av_strerror`), so a failure reads like `avcodec_open2(libx264): Invalid argument`.
enum FFmpegStatus {
    /// `AVERROR(EAGAIN)`: the codec wants the other half of the send/receive pair first.
    static let again = streamkit_averror_eagain()
    /// `AVERROR_EOF`: the codec is fully drained.
    static let endOfFile = streamkit_averror_eof()

    /// FFmpeg's text for an error code.
    /// - Parameter code: a negative `AVERROR` value.
    /// - Returns: the message `av_strerror` gives, or the numeric code when it has none.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let found = buffer.withUnsafeMutableBufferPointer { pointer -> Bool in
            guard let base = pointer.baseAddress else { return false }
            return av_strerror(code, base, pointer.count) == 0
        }
        guard found else { return "error \(code)" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks a return code.
    /// - Parameters:
    ///   - code: the value a libav* call returned.
    ///   - operation: what was called, for the message (for example `avcodec_open2(libx264)`).
    /// - Returns: `code` when it is not negative.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message when it is.
    @discardableResult
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(CodecError) -> Int32 {
        guard code < 0 else { return code }
        throw CodecError.engineFailure("\(operation()): \(message(code))")
    }
}
#endif

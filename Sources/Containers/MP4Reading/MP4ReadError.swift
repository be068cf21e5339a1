/// Why an MP4 (ISO/IEC 14496-12 base media file) could not be read.
///
/// Every malformed-input case names the box path (`moov/trak[1]/mdia/minf/stbl/stsz`, indices counted
/// from 0 among boxes of the same type) and the byte offset in the file where the fault lies, so a hostile
/// or broken file can be diagnosed without a hex editor.
public enum MP4ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or mapped.
    case io(ContainerIOError)
    /// A box or a field inside it breaks the structure of ISO/IEC 14496-12.
    case malformedBox(path: String, byteOffset: Int, reason: String)
    /// A box the file needs is absent (for example `moov`, or `stsd` in a track).
    case missingBox(path: String, box: String)
    /// The file exceeds one of the reader's hard caps (``MP4ReaderLimits``), which keep memory bounded.
    case limitExceeded(path: String, byteOffset: Int, limit: String)

    /// A one-line explanation naming the box path and offset.
    public var description: String {
        switch self {
        case let .io(error): return "MP4: \(error)"
        case let .malformedBox(path, offset, reason): return "MP4: \(path) at byte \(offset): \(reason)"
        case let .missingBox(path, box): return "MP4: \(path.isEmpty ? "the file" : path) has no \(box) box"
        case let .limitExceeded(path, offset, limit): return "MP4: \(path) at byte \(offset): exceeds \(limit)"
        }
    }
}

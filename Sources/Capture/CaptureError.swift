import POSIX

/// What can go wrong while opening or reading a live source.
///
/// Every case names the device (path or ALSA name) and, where the operating system reported it,
/// the `errno` value or ALSA error code together with its text, so the message alone says what to fix.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter is out of range; `parameter` names it and `reason` gives the allowed range.
    case invalidConfiguration(parameter: String, reason: String)
    /// The device node does not exist (`ENOENT`).
    case deviceNotFound(path: String)
    /// The path exists but is not a V4L2 device (`VIDIOC_QUERYCAP` failed); `reason` carries the errno text.
    case notAVideoDevice(path: String, reason: String)
    /// The device is a V4L2 device but cannot capture single-planar video with streaming I/O.
    case notACaptureDevice(path: String, card: String, reason: String)
    /// The device offers no 4:2:0 format (NV12, YU12, NV21, YV12) and no YUYV; `offered` lists its FourCCs.
    case noSupportedFormat(path: String, offered: [String])
    /// A system call failed; `call` names it (`open`, `VIDIOC_S_FMT`, `mmap` …), with `errno` and its text.
    case systemCallFailed(call: String, path: String, errno: Int32, message: String)
    /// The device answered something the V4L2 specification does not allow; `reason` says what.
    case deviceMisbehaved(path: String, reason: String)
    /// A shared library could not be loaded (`dlopen` failed); `reason` is `dlerror()`'s text.
    case libraryUnavailable(library: String, reason: String)
    /// A shared library lacks a function StreamKit needs.
    case symbolMissing(library: String, symbol: String)
    /// `snd_pcm_open` failed: no such ALSA device, or it is busy; `code` is ALSA's negative error code.
    case audioDeviceUnavailable(device: String, code: Int32, message: String)
    /// An ALSA call other than `snd_pcm_open` failed; `call` names it.
    case audioCallFailed(device: String, call: String, code: Int32, message: String)
    /// A file a source reads (a `.y4m`, `.yuv` or `.wav` played as a camera or microphone) cannot be opened or is
    /// damaged; `reason` is the reader's error.
    case fileUnreadable(path: String, reason: String)

    /// What is wrong, in one sentence.
    public var description: String {
        switch self {
        case let .invalidConfiguration(parameter, reason):
            return "invalid capture configuration: \(parameter) \(reason)"
        case let .deviceNotFound(path):
            return "no such video device: \(path) does not exist"
        case let .notAVideoDevice(path, reason):
            return "\(path) is not a V4L2 video device (VIDIOC_QUERYCAP: \(reason))"
        case let .notACaptureDevice(path, card, reason):
            return "\(path) (\(card)) is not a usable capture device: \(reason)"
        case let .noSupportedFormat(path, offered):
            let list = offered.isEmpty ? "no formats at all" : offered.joined(separator: ", ")
            return "\(path) offers no 4:2:0 format (NV12, YU12, NV21, YV12) and no YUYV; it offers \(list)"
        case let .systemCallFailed(call, path, code, message):
            return "\(call) on \(path) failed: \(message) (errno \(code))"
        case let .deviceMisbehaved(path, reason):
            return "\(path) answered outside the V4L2 specification: \(reason)"
        case let .libraryUnavailable(library, reason):
            return "cannot load \(library): \(reason)"
        case let .symbolMissing(library, symbol):
            return "\(library) has no function \(symbol)"
        case let .audioDeviceUnavailable(device, code, message):
            return "cannot open ALSA capture device \"\(device)\": \(message) (error \(code))"
        case let .audioCallFailed(device, call, code, message):
            return "\(call) on ALSA device \"\(device)\" failed: \(message) (error \(code))"
        case let .fileUnreadable(path, reason):
            // The readers' own errors usually name the file already.
            return reason.contains(path) ? reason : "cannot read \(path): \(reason)"
        }
    }

    /// The text of an `errno` value, from the C library (`strerror`).
    /// - Parameter code: an `errno` value.
    /// - Returns: its text, for example "No such file or directory".
    static func errnoText(_ code: Int32) -> String {
        Errno(code).description
    }

    /// A ``systemCallFailed(call:path:errno:message:)`` built from the current `errno`.
    /// - Parameters:
    ///   - call: the failed call's name.
    ///   - path: the device it was made on.
    ///   - code: the `errno` value it left.
    /// - Returns: the error.
    static func system(_ call: String, path: String, errno code: Int32) -> CaptureError {
        .systemCallFailed(call: call, path: path, errno: code, message: errnoText(code))
    }
}

/// How many threads an encoder may code on (``CompressionConfiguration/threadCount``, `streamkit encode --threads N|auto`).
///
/// The native engine codes the slices of one picture at the same time (slice threads, as x264's `--sliced-threads`):
/// more than one thread cuts each picture into that many slices, unless the engine was made with a slice layout of its
/// own. The libavcodec engines take it as `AVCodecContext.thread_count` (``automatic`` is 0: the library chooses, which
/// is the core count). For a given preset and thread count the native engine's output is the same on every run.
public enum EncoderThreadCount: Sendable, Hashable, CustomStringConvertible {
    /// As many threads as the process has processors (its CPU affinity and quota).
    case automatic
    /// At most this many threads, 1 or more (1: one thread, one slice).
    case count(Int)

    /// Parses `auto` or a whole number of at least 1.
    /// - Parameter text: the option's value.
    /// - Returns: the thread count, `nil` for anything else.
    public init?(_ text: String) {
        if text == "auto" {
            self = .automatic
        } else if let count = Int(text), count >= 1 {
            self = .count(count)
        } else {
            return nil
        }
    }

    /// The count for `processors` available processors: ``count(_:)``'s own, or `processors` for ``automatic``
    /// (at least 1 either way).
    /// - Parameter processors: how many processors the process may run on.
    /// - Returns: the thread count.
    public func resolved(processors: Int) -> Int {
        switch self {
        case .automatic: max(1, processors)
        case let .count(count): max(1, count)
        }
    }

    /// `auto` or the number, as written on the command line.
    public var description: String {
        switch self {
        case .automatic: "auto"
        case let .count(count): String(count)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output written in 64 KiB blocks with `write(2)`, so a report that streams a line per frame
/// does not pay a call per line. (Nothing else may write to standard output between two flushes.)
struct StandardOutput {
    private var pending = ""
    private let blockSize = 64 << 10

    /// Adds text; it is written once a block has filled up, or at ``flush()``.
    /// - Parameter text: the text.
    mutating func write(_ text: String) {
        pending += text
        if pending.utf8.count >= blockSize { flush() }
    }

    /// Writes what is pending.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }  // the block is reused: no allocation per block
        pending.withUTF8 { bytes in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = writeToStandardOutput(next, left)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }  // a closed pipe: nothing more can be written
                next += written
                left -= written
            }
        }
    }
}

/// `write(2)` to standard output (a free function, so that the name does not resolve to the method).
private func writeToStandardOutput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(STDOUT_FILENO, bytes, count)
}

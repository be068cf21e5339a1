#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls the file sources and sinks make, named apart from their own `read`/`write`/`close`
/// methods, with `EINTR` retried.
enum SystemCall {
    /// The C library's `errno` after a failed call.
    static var lastError: Int32 { errno }

    /// `open(2)`.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        while true {
            #if canImport(Glibc)
            let descriptor = Glibc.open(path, flags, mode)
            #else
            let descriptor = Darwin.open(path, flags, mode)
            #endif
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    /// `close(2)`.
    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.close(descriptor)
        #else
        return Darwin.close(descriptor)
        #endif
    }

    /// `read(2)`, retried on `EINTR`.
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while true {
            #if canImport(Glibc)
            let result = Glibc.read(descriptor, buffer, count)
            #else
            let result = Darwin.read(descriptor, buffer, count)
            #endif
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Writes every byte with `write(2)` (or `pwrite(2)` at `offset`), retrying short writes and `EINTR`.
    /// - Returns: 0 on success, else the `errno` of the failed call.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> Int32 {
        guard var pointer = bytes.baseAddress else { return 0 }
        var left = bytes.count
        var position = offset
        while left > 0 {
            #if canImport(Glibc)
            let written = position.map { Glibc.pwrite(descriptor, pointer, left, off_t($0)) } ?? Glibc.write(descriptor, pointer, left)
            #else
            let written = position.map { Darwin.pwrite(descriptor, pointer, left, off_t($0)) } ?? Darwin.write(descriptor, pointer, left)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            pointer += written
            left -= written
            position = position.map { $0 + written }
        }
        return 0
    }
}

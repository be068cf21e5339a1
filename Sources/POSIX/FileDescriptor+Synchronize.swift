#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptor {
    /// Waits until the file's data and metadata written so far are on the storage device (`fsync(2)`).
    ///
    /// What makes a write-then-rename replacement durable: without it, a crash after `rename(2)` can
    /// leave the new name pointing at an empty file.
    /// - Throws: ``SystemError`` (call `fsync`): `EIO`, `ENOSPC`, `EINVAL` for a pipe or socket, `EBADF`
    ///   after ``close()``.
    public func synchronize() throws(SystemError) {
        let number = try openNumber(for: "fsync")
        _ = try systemCall("fsync", on: label) { fsync(number) }
    }
}

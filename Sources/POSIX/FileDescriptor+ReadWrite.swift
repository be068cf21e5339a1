#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptor {
    /// Reads the next bytes (`read(2)`), retrying when a signal interrupts the call.
    /// - Parameter buffer: where to put them; up to `buffer.count` bytes.
    /// - Returns: the number of bytes read; 0 at the end of the file (or for an empty buffer).
    /// - Throws: ``SystemError`` (call `read`): `EAGAIN` (``Errno/wouldBlock``) when non-blocking and
    ///   nothing is there, `EISDIR` for a directory, `EBADF` after ``close()``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        let number = try openNumber(for: "read")
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try systemCall("read", on: label) {
            #if canImport(Glibc)
            Glibc.read(number, base, buffer.count)
            #else
            Darwin.read(number, base, buffer.count)
            #endif
        }
    }

    /// Reads bytes at a position without moving the file position (`pread(2)`).
    /// - Parameters:
    ///   - buffer: where to put them.
    ///   - offset: the position in the file.
    /// - Returns: the number of bytes read; 0 at or past the end of the file.
    /// - Throws: ``SystemError`` (call `pread`): `ESPIPE` for a pipe or socket, `EBADF` after ``close()``.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        let number = try openNumber(for: "pread")
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try systemCall("pread", on: label) { pread(number, base, buffer.count, off_t(offset)) }
    }

    /// Writes bytes once (`write(2)`); it may write fewer than given (see ``writeAll(_:)``).
    /// - Parameter bytes: the bytes.
    /// - Returns: how many were written.
    /// - Throws: ``SystemError`` (call `write`): `EAGAIN` when non-blocking and full, `EPIPE`,
    ///   `ENOSPC`, `EBADF` after ``close()``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        let number = try openNumber(for: "write")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return try systemCall("write", on: label) {
            #if canImport(Glibc)
            Glibc.write(number, base, bytes.count)
            #else
            Darwin.write(number, base, bytes.count)
            #endif
        }
    }

    /// Writes bytes once at a position without moving the file position (`pwrite(2)`).
    /// - Parameters:
    ///   - bytes: the bytes.
    ///   - offset: the position in the file.
    /// - Returns: how many were written.
    /// - Throws: ``SystemError`` (call `pwrite`): `ESPIPE` for a pipe or socket, `EBADF` after ``close()``.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        let number = try openNumber(for: "pwrite")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return try systemCall("pwrite", on: label) { pwrite(number, base, bytes.count, off_t(offset)) }
    }

    /// Writes every byte, calling `write(2)` again after a short write.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``SystemError`` (call `write`); `EIO` if the system accepts no byte at all.
    ///   Some bytes may have been written when it throws.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var rest = bytes
        while !rest.isEmpty {
            let written = try write(rest)
            guard written > 0 else { throw SystemError("write", errno: .ioError, subject: label) }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }

    /// Writes every byte from a position on (`pwrite(2)` again after a short write), without moving the
    /// file position.
    /// - Parameters:
    ///   - bytes: the bytes.
    ///   - offset: where the first goes.
    /// - Throws: ``SystemError`` (call `pwrite`): `ESPIPE` for a pipe; `EIO` if no byte is accepted.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) {
        var rest = bytes
        var position = offset
        while !rest.isEmpty {
            let written = try write(rest, at: position)
            guard written > 0 else { throw SystemError("pwrite", errno: .ioError, subject: label) }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            position += Int64(written)
        }
    }
}

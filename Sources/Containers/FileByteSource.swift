#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``ByteSource`` that reads a file (or any readable descriptor) with `read(2)`, as the reader
/// asks for it.
///
/// A reference type because it owns a file descriptor: copies share the descriptor and its position.
/// It closes the descriptor in ``close()`` or, at the latest, when the last reference goes away.
/// Not `Sendable`: use it from one task at a time.
public final class FileByteSource: ByteSource {
    /// The path, or the label given for a descriptor.
    public let path: String
    private var descriptor: Int32
    private let closesDescriptor: Bool

    /// Opens a file for reading.
    /// - Parameter path: the file's path.
    /// - Throws: ``ContainerIOError`` (operation `open`) when it cannot be opened.
    public init(path: String) throws(ContainerIOError) {
        let descriptor = SystemCall.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ContainerIOError(operation: .open, path: path, code: errno) }
        self.path = path
        self.descriptor = descriptor
        self.closesDescriptor = true
    }

    /// Reads from a descriptor the caller opened (for example standard input, 0).
    /// - Parameters:
    ///   - fileDescriptor: an open, readable descriptor.
    ///   - label: a name for error messages, such as `<stdin>`.
    ///   - closesDescriptor: whether ``close()`` and deinitialization close it.
    public init(fileDescriptor: Int32, label: String, closesDescriptor: Bool = false) {
        self.path = label
        self.descriptor = fileDescriptor
        self.closesDescriptor = closesDescriptor
    }

    deinit {
        if closesDescriptor && descriptor >= 0 { _ = SystemCall.close(descriptor) }
    }

    /// Reads the next bytes, retrying when a signal interrupts the call.
    /// - Parameter buffer: where to put them.
    /// - Returns: the number of bytes read; 0 at the end of the file.
    /// - Throws: ``ContainerIOError`` (operation `read`; `EBADF` after ``close()``).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerIOError) -> Int {
        guard descriptor >= 0 else { throw ContainerIOError(operation: .read, path: path, code: EBADF) }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = SystemCall.read(descriptor, base, buffer.count)
        guard count >= 0 else { throw ContainerIOError(operation: .read, path: path, code: SystemCall.lastError) }
        return count
    }

    /// For a regular file, the bytes between the current position and the end; `nil` for pipes,
    /// terminals and sockets.
    public var remainingByteCount: Int? {
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let position = lseek(descriptor, 0, SEEK_CUR)
        guard position >= 0 else { return nil }
        return Swift.max(0, Int(status.st_size) - Int(position))
    }

    /// Closes the descriptor (if this source owns it); later reads fail with `EBADF`.
    /// - Throws: ``ContainerIOError`` (operation `close`) when `close(2)` fails.
    public func close() throws(ContainerIOError) {
        guard descriptor >= 0 else { return }
        let owned = descriptor
        descriptor = -1
        if closesDescriptor && SystemCall.close(owned) != 0 {
            throw ContainerIOError(operation: .close, path: path, code: errno)
        }
    }
}

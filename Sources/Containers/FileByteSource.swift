import POSIX

/// A ``ByteSource`` that reads a file (or any readable descriptor) with `read(2)`, as the reader
/// asks for it.
///
/// A reference type because it owns a file descriptor (a POSIX ``FileDescriptor``): copies share the
/// descriptor and its position. It closes the descriptor in ``close()`` or, at the latest, when the last
/// reference goes away. Not `Sendable`: use it from one task at a time.
public final class FileByteSource: ByteSource {
    /// The path, or the label given for a descriptor.
    public let path: String
    private let descriptor: FileDescriptor

    /// Opens a file for reading.
    /// - Parameter path: the file's path.
    /// - Throws: ``ContainerIOError`` (operation `open`) when it cannot be opened, or is a directory
    ///   (`EISDIR`, said at once rather than at the first read).
    public init(path: String) throws(ContainerIOError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw ContainerIOError(operation: .open, path: path, error)
        }
        if (try? descriptor.status().kind) == .directory {
            try? descriptor.close()
            throw ContainerIOError(operation: .open, path: path, code: Errno.isADirectory.rawValue)
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Reads from a descriptor the caller opened (for example standard input, 0).
    /// - Parameters:
    ///   - fileDescriptor: an open, readable descriptor.
    ///   - label: a name for error messages, such as `<stdin>`.
    ///   - closesDescriptor: whether ``close()`` and deinitialization close it.
    public init(fileDescriptor: Int32, label: String, closesDescriptor: Bool = false) {
        self.path = label
        self.descriptor = closesDescriptor ? FileDescriptor(adopting: fileDescriptor, label: label)
            : FileDescriptor(borrowing: fileDescriptor, label: label)
    }

    /// Reads the next bytes, retrying when a signal interrupts the call.
    /// - Parameter buffer: where to put them.
    /// - Returns: the number of bytes read; 0 at the end of the file.
    /// - Throws: ``ContainerIOError`` (operation `read`; `EBADF` after ``close()``).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerIOError) -> Int {
        do {
            return try descriptor.read(into: buffer)
        } catch {
            throw ContainerIOError(operation: .read, path: path, error)
        }
    }

    /// For a regular file, the bytes between the current position and the end; `nil` for pipes,
    /// terminals and sockets.
    public var remainingByteCount: Int? {
        guard let status = try? descriptor.status(), status.kind == .regular,
              let position = try? descriptor.position() else { return nil }
        return Swift.max(0, Int(status.size) - Int(position))
    }

    /// Closes the descriptor (if this source owns it); later reads fail with `EBADF`. Closing twice does
    /// nothing.
    /// - Throws: ``ContainerIOError`` (operation `close`) when `close(2)` fails.
    public func close() throws(ContainerIOError) {
        guard !descriptor.isClosed else { return }
        do {
            try descriptor.close()
        } catch {
            throw ContainerIOError(operation: .close, path: path, error)
        }
    }
}

import POSIX

/// A buffered ``ByteSink`` that writes a file (or any writable descriptor) with `write(2)`.
///
/// Small writes are gathered in a buffer and written in large blocks; writes larger than the buffer
/// go straight through. ``overwrite(_:at:)`` uses `pwrite(2)` and fails with `ESPIPE` on a pipe.
///
/// A reference type because it owns a file descriptor (a POSIX ``FileDescriptor``): copies share it. Call ``close()`` (writers do
/// in `finish()`): deinitialization closes a forgotten sink too, but can only try to flush, silently.
/// Not `Sendable`: use it from one task at a time.
public final class FileByteSink: InsertingByteSink {
    /// The path, or the label given for a descriptor.
    public let path: String
    /// The number of bytes gathered before a block is written.
    public let bufferCapacity: Int
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    /// Bytes handed to the system so far (the file offset of the first buffered byte).
    private var flushedCount = 0

    /// Creates (or truncates) a file for writing, with permissions `rw-r--r--`.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - bufferCapacity: the size of the write buffer (at least 1; 256 KiB by default).
    /// - Throws: ``ContainerIOError`` (operation `open`) when the file cannot be created.
    public init(path: String, bufferCapacity: Int = 256 << 10) throws(ContainerIOError) {
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate],
                                                 permissions: .ownerReadWriteOthersRead)
        } catch {
            throw ContainerIOError(operation: .open, path: path, error)
        }
        self.path = path
        self.bufferCapacity = Swift.max(1, bufferCapacity)
        buffer.reserveCapacity(self.bufferCapacity)
    }

    /// Writes to a descriptor the caller opened (for example standard output, 1).
    /// - Parameters:
    ///   - fileDescriptor: an open, writable descriptor.
    ///   - label: a name for error messages, such as `<stdout>`.
    ///   - closesDescriptor: whether ``close()`` closes it.
    ///   - bufferCapacity: the size of the write buffer.
    public init(fileDescriptor: Int32, label: String, closesDescriptor: Bool = false, bufferCapacity: Int = 256 << 10) {
        self.path = label
        self.descriptor = closesDescriptor ? FileDescriptor(adopting: fileDescriptor, label: label)
            : FileDescriptor(borrowing: fileDescriptor, label: label)
        self.bufferCapacity = Swift.max(1, bufferCapacity)
        buffer.reserveCapacity(self.bufferCapacity)
    }

    deinit {
        // The descriptor closes itself when released; what is left to do is the buffered bytes.
        guard !descriptor.isClosed else { return }
        buffer.withUnsafeBytes { try? descriptor.writeAll($0) }
    }

    /// The number of bytes written so far, buffered ones included.
    public var byteCount: Int { flushedCount + buffer.count }

    /// Appends bytes, through the buffer.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``ContainerIOError`` (operation `write`; `EBADF` after ``close()``).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ContainerIOError) {
        guard !descriptor.isClosed else { throw ContainerIOError(operation: .write, path: path, code: Errno.badFileDescriptor.rawValue) }
        if buffer.count + bytes.count <= bufferCapacity {
            buffer.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count < bufferCapacity {
            buffer.append(contentsOf: bytes)
            return
        }
        do {
            try descriptor.writeAll(bytes)
        } catch {
            throw ContainerIOError(operation: .write, path: path, error)
        }
        flushedCount += bytes.count
    }

    /// Appends the bytes of an array, through the buffer.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``ContainerIOError`` (operation `write`; `EBADF` after ``close()``).
    public func write(_ bytes: [UInt8]) throws(ContainerIOError) {
        var failure: ContainerIOError?
        bytes.withUnsafeBytes { raw in
            do throws(ContainerIOError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Replaces bytes written earlier: buffered bytes are replaced in the buffer, written ones with
    /// `pwrite(2)`.
    /// - Parameters:
    ///   - bytes: the replacement.
    ///   - offset: where it goes, from the start of the file as this sink wrote it.
    /// - Throws: ``ContainerIOError`` (operation `overwrite`): `EINVAL` for a range never written,
    ///   `ESPIPE` for a pipe, `EBADF` after ``close()``.
    public func overwrite(_ bytes: [UInt8], at offset: Int) throws(ContainerIOError) {
        guard !descriptor.isClosed else {
            throw ContainerIOError(operation: .overwrite, path: path, code: Errno.badFileDescriptor.rawValue)
        }
        guard offset >= 0, bytes.count <= byteCount - offset else {
            throw ContainerIOError(operation: .overwrite, path: path, code: Errno.invalidArgument.rawValue)
        }
        if offset >= flushedCount {
            let start = offset - flushedCount
            buffer.replaceSubrange(start..<(start + bytes.count), with: bytes)
            return
        }
        do { try flush() } catch { throw ContainerIOError(operation: .overwrite, path: path, code: error.code) }
        do {
            try writeAll(bytes, at: Int64(offset))
        } catch {
            throw ContainerIOError(operation: .overwrite, path: path, error)
        }
    }

    /// Inserts bytes at `offset`, moving the rest of the file along: the tail is read back with
    /// `pread(2)` and written again with `pwrite(2)`, last block first, in blocks of the buffer size,
    /// so memory stays bounded whatever the file's size.
    /// - Parameters:
    ///   - bytes: the bytes to insert.
    ///   - offset: where they go; at most ``byteCount``.
    /// - Throws: ``ContainerIOError`` (operation `overwrite`): `EINVAL` past the end, `ESPIPE` for a
    ///   pipe, `EBADF` after ``close()`` or for a descriptor opened write-only that cannot be read.
    public func insert(_ bytes: [UInt8], at offset: Int) throws(ContainerIOError) {
        guard !descriptor.isClosed else {
            throw ContainerIOError(operation: .overwrite, path: path, code: Errno.badFileDescriptor.rawValue)
        }
        guard offset >= 0, offset <= byteCount else {
            throw ContainerIOError(operation: .overwrite, path: path, code: Errno.invalidArgument.rawValue)
        }
        guard !bytes.isEmpty else { return }
        do { try flush() } catch { throw ContainerIOError(operation: .overwrite, path: path, code: error.code) }
        let reader: FileDescriptor
        do {
            reader = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw ContainerIOError(operation: .overwrite, path: path, error)
        }
        defer { try? reader.close() }
        do {
            try moveTail(from: offset, by: bytes.count, reader: reader)
            try writeAll(bytes, at: Int64(offset))
        } catch {
            throw ContainerIOError(operation: .overwrite, path: path, error)
        }
        flushedCount += bytes.count
    }

    /// Writes the buffered bytes.
    /// - Throws: ``ContainerIOError`` (operation `write`).
    public func flush() throws(ContainerIOError) {
        guard !descriptor.isClosed else { throw ContainerIOError(operation: .write, path: path, code: Errno.badFileDescriptor.rawValue) }
        guard !buffer.isEmpty else { return }
        do {
            try writeAll(buffer, at: nil)
        } catch {
            throw ContainerIOError(operation: .write, path: path, error)
        }
        flushedCount += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the descriptor (if this sink owns it). Closing twice does nothing.
    /// - Throws: ``ContainerIOError`` when the last write or `close(2)` fails; the descriptor is
    ///   released either way.
    public func close() throws(ContainerIOError) {
        guard !descriptor.isClosed else { return }
        var failure: ContainerIOError?
        do { try flush() } catch { failure = error }
        do {
            try descriptor.close()
        } catch where failure == nil {
            failure = ContainerIOError(operation: .close, path: path, error)
        } catch {}
        buffer = []
        if let failure { throw failure }
    }

    /// Moves the file's bytes from `offset` to its end `distance` bytes further, last block first.
    private func moveTail(from offset: Int, by distance: Int, reader: FileDescriptor) throws(SystemError) {
        let block = Swift.max(bufferCapacity, 64 << 10)
        var chunk = [UInt8](repeating: 0, count: block)
        var end = flushedCount
        var failure: SystemError?
        while end > offset, failure == nil {
            let start = Swift.max(offset, end - block)
            let length = end - start
            chunk.withUnsafeMutableBytes { raw in
                do throws(SystemError) {
                    var filled = 0
                    while filled < length {
                        let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<length]),
                                                    at: Int64(start + filled))
                        guard count > 0 else { throw SystemError("pread", errno: .invalidArgument, subject: path) }
                        filled += count
                    }
                    try descriptor.writeAll(UnsafeRawBufferPointer(rebasing: raw[0..<length]), at: Int64(start + distance))
                } catch {
                    failure = error
                }
            }
            end = start
        }
        if let failure { throw failure }
    }

    /// Writes every byte of an array with the descriptor, at `offset` (`pwrite`) or the current position.
    private func writeAll(_ bytes: [UInt8], at offset: Int64?) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) {
                if let offset { try descriptor.writeAll(raw, at: offset) } else { try descriptor.writeAll(raw) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

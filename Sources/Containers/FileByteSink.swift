#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered ``ByteSink`` that writes a file (or any writable descriptor) with `write(2)`.
///
/// Small writes are gathered in a buffer and written in large blocks; writes larger than the buffer
/// go straight through. ``overwrite(_:at:)`` uses `pwrite(2)` and fails with `ESPIPE` on a pipe.
///
/// A reference type because it owns a file descriptor: copies share it. Call ``close()`` (writers do
/// in `finish()`): deinitialization closes a forgotten sink too, but can only try to flush, silently.
/// Not `Sendable`: use it from one task at a time.
public final class FileByteSink: ByteSink {
    /// The path, or the label given for a descriptor.
    public let path: String
    /// The number of bytes gathered before a block is written.
    public let bufferCapacity: Int
    private var descriptor: Int32
    private let closesDescriptor: Bool
    private var buffer: [UInt8] = []
    /// Bytes handed to the system so far (the file offset of the first buffered byte).
    private var flushedCount = 0

    /// Creates (or truncates) a file for writing, with permissions `rw-r--r--`.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - bufferCapacity: the size of the write buffer (at least 1; 256 KiB by default).
    /// - Throws: ``ContainerIOError`` (operation `open`) when the file cannot be created.
    public init(path: String, bufferCapacity: Int = 256 << 10) throws(ContainerIOError) {
        let descriptor = SystemCall.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ContainerIOError(operation: .open, path: path, code: SystemCall.lastError) }
        self.path = path
        self.descriptor = descriptor
        self.closesDescriptor = true
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
        self.descriptor = fileDescriptor
        self.closesDescriptor = closesDescriptor
        self.bufferCapacity = Swift.max(1, bufferCapacity)
        buffer.reserveCapacity(self.bufferCapacity)
    }

    deinit {
        guard descriptor >= 0 else { return }
        buffer.withUnsafeBytes { _ = SystemCall.writeAll(descriptor, $0) }
        if closesDescriptor { _ = SystemCall.close(descriptor) }
    }

    /// The number of bytes written so far, buffered ones included.
    public var byteCount: Int { flushedCount + buffer.count }

    /// Appends bytes, through the buffer.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``ContainerIOError`` (operation `write`; `EBADF` after ``close()``).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ContainerIOError) {
        guard descriptor >= 0 else { throw ContainerIOError(operation: .write, path: path, code: EBADF) }
        if buffer.count + bytes.count <= bufferCapacity {
            buffer.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count < bufferCapacity {
            buffer.append(contentsOf: bytes)
            return
        }
        let code = SystemCall.writeAll(descriptor, bytes)
        guard code == 0 else { throw ContainerIOError(operation: .write, path: path, code: code) }
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
        guard descriptor >= 0 else { throw ContainerIOError(operation: .overwrite, path: path, code: EBADF) }
        guard offset >= 0, bytes.count <= byteCount - offset else {
            throw ContainerIOError(operation: .overwrite, path: path, code: EINVAL)
        }
        if offset >= flushedCount {
            let start = offset - flushedCount
            buffer.replaceSubrange(start..<(start + bytes.count), with: bytes)
            return
        }
        do { try flush() } catch { throw ContainerIOError(operation: .overwrite, path: path, code: error.code) }
        let code = bytes.withUnsafeBytes { SystemCall.writeAll(descriptor, $0, at: offset) }
        guard code == 0 else { throw ContainerIOError(operation: .overwrite, path: path, code: code) }
    }

    /// Writes the buffered bytes.
    /// - Throws: ``ContainerIOError`` (operation `write`).
    public func flush() throws(ContainerIOError) {
        guard descriptor >= 0 else { throw ContainerIOError(operation: .write, path: path, code: EBADF) }
        guard !buffer.isEmpty else { return }
        let code = buffer.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
        guard code == 0 else { throw ContainerIOError(operation: .write, path: path, code: code) }
        flushedCount += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the descriptor (if this sink owns it). Closing twice does nothing.
    /// - Throws: ``ContainerIOError`` when the last write or `close(2)` fails; the descriptor is
    ///   released either way.
    public func close() throws(ContainerIOError) {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        var failure: ContainerIOError?
        do { try flush() } catch { failure = error }
        if closesDescriptor && SystemCall.close(descriptor) != 0 && failure == nil {
            failure = ContainerIOError(operation: .close, path: path, code: SystemCall.lastError)
        }
        buffer = []
        if let failure { throw failure }
    }
}

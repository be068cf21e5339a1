#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``ByteSink`` that collects the bytes in memory: for tests, and for building a file before
/// sending it somewhere.
public struct MemoryByteSink: InsertingByteSink, Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether ``close()`` was called.
    public private(set) var isClosed = false

    /// Creates an empty sink.
    public init() {}

    /// Appends bytes.
    /// - Parameter buffer: the bytes.
    /// - Throws: ``ContainerIOError`` with `EBADF` after ``close()``.
    public mutating func write(_ buffer: UnsafeRawBufferPointer) throws(ContainerIOError) {
        guard !isClosed else { throw ContainerIOError(operation: .write, path: "<memory>", code: EBADF) }
        bytes.append(contentsOf: buffer)
    }

    /// Replaces bytes written earlier.
    /// - Parameters:
    ///   - newBytes: the replacement.
    ///   - offset: where it goes.
    /// - Throws: ``ContainerIOError`` with `EINVAL` when the range was never written, `EBADF` after
    ///   ``close()``.
    public mutating func overwrite(_ newBytes: [UInt8], at offset: Int) throws(ContainerIOError) {
        guard !isClosed else { throw ContainerIOError(operation: .overwrite, path: "<memory>", code: EBADF) }
        guard offset >= 0, newBytes.count <= bytes.count - offset else {
            throw ContainerIOError(operation: .overwrite, path: "<memory>", code: EINVAL)
        }
        bytes.replaceSubrange(offset..<(offset + newBytes.count), with: newBytes)
    }

    /// Inserts bytes before the ones from `offset` on.
    /// - Parameters:
    ///   - newBytes: the bytes to insert.
    ///   - offset: where they go.
    /// - Throws: ``ContainerIOError`` with `EINVAL` past the end, `EBADF` after ``close()``.
    public mutating func insert(_ newBytes: [UInt8], at offset: Int) throws(ContainerIOError) {
        guard !isClosed else { throw ContainerIOError(operation: .overwrite, path: "<memory>", code: EBADF) }
        guard offset >= 0, offset <= bytes.count else { throw ContainerIOError(operation: .overwrite, path: "<memory>", code: EINVAL) }
        bytes.insert(contentsOf: newBytes, at: offset)
    }

    /// Does nothing: the bytes are already in ``bytes``.
    public func flush() {}

    /// Marks the sink closed; ``bytes`` stays readable.
    public mutating func close() {
        isClosed = true
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only, private memory mapping of a whole regular file (`mmap(2)` with `PROT_READ`, `MAP_PRIVATE`),
/// unmapped when the object goes.
///
/// The pages are the file's own: nothing is copied, the kernel reads them in on first touch and drops them under
/// memory pressure. The mapping is advised for sequential reading (`madvise(MADV_SEQUENTIAL)`). An empty file
/// maps to no memory at all: ``bytes`` is then empty with a `nil` base address.
public final class MemoryMapping: @unchecked Sendable {
    // @unchecked: the mapping is PROT_READ and never changes while the object exists.

    /// The mapped bytes, valid as long as this object lives.
    public let bytes: UnsafeRawBufferPointer

    /// Maps the whole file at `path` for reading.
    /// - Parameter path: the file's path.
    /// - Throws: ``SystemError``: call `open` (subject `path`) when the file cannot be opened, `fstat` when it
    ///   cannot be examined, `mmap` with `EISDIR` for a directory or `EINVAL` for anything that is not a regular
    ///   file, and `mmap` with the kernel's reason when the mapping fails.
    public init(readingFileAt path: String) throws(SystemError) {
        let file = try FileDescriptor.open(path, .readOnly)
        defer { try? file.close() }
        let status = try file.status()
        switch status.kind {
        case .regular: break
        case .directory: throw SystemError("mmap", errno: Errno(EISDIR), subject: path)
        default: throw SystemError("mmap", errno: Errno(EINVAL), subject: path)
        }
        guard status.size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let size = Int(exactly: status.size) else { throw SystemError("mmap", errno: Errno(EFBIG), subject: path) }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.rawValue, 0)
        guard let address, address != MAP_FAILED else { throw SystemError("mmap", errno: Errno(errno), subject: path) }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { _ = munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Bitstream

/// A read-only, private memory mapping of a whole file (`mmap(2)`), unmapped when the last ``ByteView`` of it
/// goes. The pages are the file's own: nothing is copied, and the kernel drops them under memory pressure.
final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping is PROT_READ and never changes while it exists.
    let base: UnsafeRawPointer?
    let count: Int

    /// Maps `path`.
    /// - Throws: ``ContainerIOError`` (operation `open` or `read`) when the file cannot be opened or mapped.
    init(path: String) throws(ContainerIOError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ContainerIOError(operation: .open, path: path, code: errno) }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ContainerIOError(operation: .open, path: path, code: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ContainerIOError(operation: .open, path: path, code: (status.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            base = nil
            count = 0
            return
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw ContainerIOError(operation: .read, path: path, code: errno) }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        base = UnsafeRawPointer(address)
        count = size
    }

    deinit {
        if let base { _ = munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// A view of the whole file that keeps the mapping alive.
    var view: ByteView { ByteView(unsafeBytes: UnsafeRawBufferPointer(start: base, count: count), owner: self) }
}

import Bitstream
import POSIX

/// A whole file mapped into memory for reading (POSIX's ``MemoryMapping``), seen as one ``ByteView`` that
/// keeps the mapping alive: it is unmapped when the last view of it goes.
final class MappedFile: Sendable {
    private let mapping: MemoryMapping

    /// Maps `path`.
    /// - Throws: ``ContainerIOError``: operation `open` when the file cannot be opened or is not a regular file
    ///   (`EISDIR` for a directory), `read` when it cannot be mapped.
    init(path: String) throws(ContainerIOError) {
        do {
            mapping = try MemoryMapping(readingFileAt: path)
        } catch {
            let mappingFailed = error.call == "mmap" && error.errno != .isADirectory && error.errno != .invalidArgument
            throw ContainerIOError(operation: mappingFailed ? .read : .open, path: path, error)
        }
    }

    /// A view of the whole file that keeps the mapping alive.
    var view: ByteView { ByteView(unsafeBytes: mapping.bytes, owner: self) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `fstat(2)` says about an open file: its kind and size.
public struct FileStatus: Sendable, Hashable {
    /// The kind of file behind a descriptor (`st_mode & S_IFMT`).
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A character device (a terminal, `/dev/null`, a V4L2 camera).
        case characterDevice
        /// A block device.
        case blockDevice
        /// A pipe or FIFO.
        case fifo
        /// A socket.
        case socket
        /// A symbolic link (only seen with `O_PATH`/`O_NOFOLLOW` descriptors).
        case symbolicLink
        /// Anything else.
        case unknown
    }

    /// The kind of file.
    public var kind: Kind
    /// The size in bytes (meaningful for regular files).
    public var size: Int64

    /// A status from its parts.
    /// - Parameters:
    ///   - kind: the kind of file.
    ///   - size: the size in bytes.
    public init(kind: Kind, size: Int64) {
        self.kind = kind
        self.size = size
    }
}

extension FileDescriptor {
    /// Asks `fstat(2)` what the descriptor is.
    /// - Returns: its kind and size.
    /// - Throws: ``SystemError`` (call `fstat`): `EBADF` after ``close()``.
    public func status() throws(SystemError) -> FileStatus {
        let number = try openNumber(for: "fstat")
        var info = stat()
        _ = try systemCall("fstat", on: label) { fstat(number, &info) }
        let kind: FileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        default: kind = .unknown
        }
        return FileStatus(kind: kind, size: Int64(info.st_size))
    }
}

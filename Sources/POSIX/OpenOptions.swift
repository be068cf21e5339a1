#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptor {
    /// Whether a file is opened for reading, writing or both (`O_RDONLY`, `O_WRONLY`, `O_RDWR`).
    public enum AccessMode: Sendable, Hashable {
        /// `O_RDONLY`.
        case readOnly
        /// `O_WRONLY`.
        case writeOnly
        /// `O_RDWR`.
        case readWrite

        /// The `open(2)` flag.
        public var rawValue: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// How `open(2)` treats the file beyond the access mode. `O_CLOEXEC` is always set.
    public struct OpenOptions: OptionSet, Sendable, Hashable {
        /// The `open(2)` flags.
        public let rawValue: Int32

        /// Options from `open(2)` flags.
        /// - Parameter rawValue: the flags.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// `O_CREAT`: create the file if it does not exist (with the given permissions).
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// `O_TRUNC`: empty an existing file.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_APPEND`: every write goes to the end.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// `O_EXCL` (with ``create``): fail with `EEXIST` if the file exists.
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        /// `O_NONBLOCK`: calls that would wait fail with `EAGAIN` instead.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// `O_NOFOLLOW`: fail with `ELOOP` if the last component is a symbolic link.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    }

    /// The permission bits of a file created by `open(2)` (before the process's umask).
    public struct FilePermissions: OptionSet, Sendable, Hashable {
        /// The mode bits.
        public let rawValue: mode_t

        /// Permissions from mode bits, for example `0o644`.
        /// - Parameter rawValue: the bits.
        public init(rawValue: mode_t) {
            self.rawValue = rawValue
        }

        /// `S_IRUSR`.
        public static let ownerRead = FilePermissions(rawValue: 0o400)
        /// `S_IWUSR`.
        public static let ownerWrite = FilePermissions(rawValue: 0o200)
        /// `S_IXUSR`.
        public static let ownerExecute = FilePermissions(rawValue: 0o100)
        /// `S_IRGRP`.
        public static let groupRead = FilePermissions(rawValue: 0o040)
        /// `S_IWGRP`.
        public static let groupWrite = FilePermissions(rawValue: 0o020)
        /// `S_IXGRP`.
        public static let groupExecute = FilePermissions(rawValue: 0o010)
        /// `S_IROTH`.
        public static let otherRead = FilePermissions(rawValue: 0o004)
        /// `S_IWOTH`.
        public static let otherWrite = FilePermissions(rawValue: 0o002)
        /// `S_IXOTH`.
        public static let otherExecute = FilePermissions(rawValue: 0o001)
        /// `rw-r--r--` (0o644): what new media files get.
        public static let ownerReadWriteOthersRead: FilePermissions = [.ownerRead, .ownerWrite, .groupRead, .otherRead]
    }

    /// Opens (or creates) a file, retrying when a signal interrupts the call.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - mode: reading, writing or both.
    ///   - options: create, truncate, append… (`O_CLOEXEC` is always added).
    ///   - permissions: the permissions of a created file (`rw-r--r--` unless given).
    /// - Returns: the owned descriptor, labelled with `path`.
    /// - Throws: ``SystemError`` (call `open`, subject `path`), for example
    ///   "cannot open /x/y.h264: No such file or directory".
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [],
        permissions: FilePermissions = .ownerReadWriteOthersRead
    ) throws(SystemError) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue | O_CLOEXEC
        let number = try systemCall("open", on: path) {
            #if canImport(Glibc)
            Glibc.open(path, flags, permissions.rawValue)
            #else
            Darwin.open(path, flags, permissions.rawValue)
            #endif
        }
        return FileDescriptor(adopting: number, label: path)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls on paths rather than on open files: renaming and removing.
public enum FileSystem {
    /// Gives a file a new name, replacing whatever had that name, in one step (`rename(2)`).
    ///
    /// Within one file system the replacement is atomic: a reader opening `destination` gets either
    /// the old file or the new one, never a mixture.
    /// - Parameters:
    ///   - source: the file's current path.
    ///   - destination: its new path (in the same file system).
    /// - Throws: ``SystemError`` (call `rename`, subject `source`): `ENOENT`, `EXDEV` across file
    ///   systems, `EISDIR`, `EACCES`…
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        _ = try systemCall("rename", on: source) {
            #if canImport(Glibc)
            Glibc.rename(source, destination)
            #else
            Darwin.rename(source, destination)
            #endif
        }
    }

    /// Removes a file's name (`unlink(2)`); the file goes once nobody has it open.
    /// - Parameter path: the file.
    /// - Throws: ``SystemError`` (call `unlink`, subject `path`): `ENOENT`, `EISDIR`, `EACCES`…
    public static func removeFile(_ path: String) throws(SystemError) {
        _ = try systemCall("unlink", on: path) { unlink(path) }
    }

    /// Creates a directory (`mkdir(2)`); an existing directory is not an error.
    /// - Parameters:
    ///   - path: the directory.
    ///   - permissions: its permission bits (`rwxr-xr-x` unless given).
    /// - Throws: ``SystemError`` (call `mkdir`, subject `path`): `ENOENT` when the parent is missing,
    ///   `EEXIST` when a file (not a directory) has the name, `EACCES`…
    public static func makeDirectory(_ path: String, permissions: FileDescriptor.FilePermissions = FileDescriptor.FilePermissions(rawValue: 0o755)) throws(SystemError) {
        switch retryOnInterrupt({ mkdir(path, permissions.rawValue) }) {
        case .success: return
        case let .failure(code):
            if code == .fileExists, isDirectory(path) { return }
            throw SystemError("mkdir", errno: code, subject: path)
        }
    }

    /// Whether a path names a directory (`stat(2)`, following symbolic links).
    /// - Parameter path: the path.
    /// - Returns: `true` for a directory; `false` for anything else or a path that does not exist.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}

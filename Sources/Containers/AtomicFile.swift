import POSIX

/// Replaces a file's contents in one step, so a reader (an HTTP server handing out an HLS playlist)
/// sees the old file or the new one, never half of either.
///
/// The bytes go to a temporary file beside the destination (same directory, so the same file system),
/// which is synchronized to storage (`fsync`) and then renamed over the destination (`rename(2)` is
/// atomic within a file system). A failure removes the temporary file and leaves the destination as
/// it was.
public enum AtomicFile {
    /// Writes `bytes` to `path`, replacing any file there atomically.
    /// - Parameters:
    ///   - path: the destination.
    ///   - bytes: the complete new contents.
    /// - Throws: ``ContainerIOError``: `open` (directory missing, permissions), `write` (`ENOSPC`),
    ///   `synchronize`, `close` or `rename`; the destination is untouched in every case.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(ContainerIOError) {
        var failure: ContainerIOError?
        bytes.withUnsafeBytes { raw in
            do throws(ContainerIOError) { try replace(path, with: raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes a text as UTF-8 to `path`, replacing any file there atomically.
    /// - Parameters:
    ///   - path: the destination.
    ///   - text: the complete new contents.
    /// - Throws: ``ContainerIOError`` as ``replace(_:with:)-([UInt8])``.
    public static func replace(_ path: String, withText text: String) throws(ContainerIOError) {
        try replace(path, with: Array(text.utf8))
    }

    /// Writes raw bytes to `path`, replacing any file there atomically.
    /// - Parameters:
    ///   - path: the destination.
    ///   - bytes: the complete new contents.
    /// - Throws: ``ContainerIOError`` as ``replace(_:with:)-([UInt8])``.
    public static func replace(_ path: String, with bytes: UnsafeRawBufferPointer) throws(ContainerIOError) {
        let temporary = temporaryPath(for: path)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate, .noFollow])
        } catch {
            throw ContainerIOError(operation: .open, path: temporary, error)
        }
        var failure: ContainerIOError?
        do { try file.writeAll(bytes) } catch { failure = ContainerIOError(operation: .write, path: temporary, error) }
        if failure == nil {
            do { try file.synchronize() } catch { failure = ContainerIOError(operation: .synchronize, path: temporary, error) }
        }
        do { try file.close() } catch where failure == nil {
            failure = ContainerIOError(operation: .close, path: temporary, error)
        } catch {}
        if failure == nil {
            do { try FileSystem.rename(temporary, to: path) } catch { failure = ContainerIOError(operation: .rename, path: path, error) }
        }
        if let failure {
            try? FileSystem.removeFile(temporary)
            throw failure
        }
    }

    /// The temporary name beside `path`: the same directory, a dot in front (hidden from a listing) and
    /// `.partial` behind, for example `out/.stream.m3u8.partial`.
    /// - Parameter path: the destination.
    /// - Returns: the temporary file's path.
    public static func temporaryPath(for path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return ".\(path).partial" }
        let directory = path[...slash]
        let name = path[path.index(after: slash)...]
        return "\(directory).\(name).partial"
    }
}

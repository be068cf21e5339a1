import POSIX

/// A system call on a file or stream failed: which operation, on what, and the `errno` it reported.
public struct ContainerIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done when the call failed.
    public enum Operation: String, Sendable, Hashable {
        /// Opening or creating the file.
        case open
        /// Reading.
        case read
        /// Writing.
        case write
        /// Writing at an earlier position (patching a header field).
        case overwrite
        /// Closing.
        case close
        /// Waiting for written data to reach the storage device (`fsync`).
        case synchronize
        /// Giving a finished file its name (the rename of a write-then-rename replacement).
        case rename
        /// Removing a file that is no longer needed (an HLS segment out of the live window).
        case remove
        /// Creating a directory.
        case makeDirectory = "create directory"
    }

    /// The operation that failed.
    public var operation: Operation
    /// The file path, or a label such as `<stdout>` or `<memory>`.
    public var path: String
    /// The `errno` value (`EBADF` for use after close, `ESPIPE` for a sink that cannot go back).
    public var code: Int32

    /// Creates an error.
    /// - Parameters:
    ///   - operation: the operation that failed.
    ///   - path: the file path or a label.
    ///   - code: the `errno` value.
    public init(operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The error of a failed POSIX call, as the operation of a file layer.
    /// - Parameters:
    ///   - operation: the operation that failed.
    ///   - path: the file path or a label.
    ///   - error: what the POSIX layer reported; its `errno` is kept.
    public init(operation: Operation, path: String, _ error: SystemError) {
        self.init(operation: operation, path: path, code: error.errno.rawValue)
    }

    /// The `errno` value, typed.
    public var errno: Errno { Errno(code) }

    /// For example `cannot open /tmp/x.y4m: No such file or directory (errno 2)`.
    public var description: String {
        "cannot \(operation.rawValue) \(path): \(errno) (errno \(code))"
    }
}

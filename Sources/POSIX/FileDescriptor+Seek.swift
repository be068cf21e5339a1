#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptor {
    /// Where a ``FileDescriptor/seek(to:from:)`` offset counts from.
    public enum SeekOrigin: Sendable, Hashable {
        /// `SEEK_SET`: the start of the file.
        case start
        /// `SEEK_CUR`: the current position.
        case current
        /// `SEEK_END`: the end of the file.
        case end

        /// The `lseek(2)` constant.
        public var rawValue: Int32 {
            switch self {
            case .start: SEEK_SET
            case .current: SEEK_CUR
            case .end: SEEK_END
            }
        }
    }

    /// Moves the file position (`lseek(2)`).
    /// - Parameters:
    ///   - offset: the distance from `origin` (negative goes back).
    ///   - origin: where it counts from.
    /// - Returns: the new position, from the start of the file.
    /// - Throws: ``SystemError`` (call `lseek`): `ESPIPE` for a pipe or socket, `EINVAL` before the start.
    @discardableResult
    public func seek(to offset: Int64, from origin: SeekOrigin = .start) throws(SystemError) -> Int64 {
        let number = try openNumber(for: "lseek")
        return Int64(try systemCall("lseek", on: label) { lseek(number, off_t(offset), origin.rawValue) })
    }

    /// The current file position (`lseek(fd, 0, SEEK_CUR)`).
    /// - Returns: the position from the start of the file.
    /// - Throws: ``SystemError`` (call `lseek`): `ESPIPE` for a pipe or socket.
    public func position() throws(SystemError) -> Int64 {
        try seek(to: 0, from: .current)
    }
}

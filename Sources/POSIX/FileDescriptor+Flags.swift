#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptor {
    /// Whether calls that would wait fail with `EAGAIN` instead (`O_NONBLOCK`, read with `fcntl(F_GETFL)`).
    /// - Returns: `true` when non-blocking.
    /// - Throws: ``SystemError`` (call `fcntl`): `EBADF` after ``close()``.
    public func isNonBlocking() throws(SystemError) -> Bool {
        let number = try openNumber(for: "fcntl")
        let flags = try systemCall("fcntl", on: label) { fcntl(number, F_GETFL) }
        return flags & O_NONBLOCK != 0
    }

    /// Switches non-blocking mode on or off (`fcntl(F_SETFL)` with `O_NONBLOCK`).
    /// - Parameter enabled: `true` for non-blocking.
    /// - Throws: ``SystemError`` (call `fcntl`): `EBADF` after ``close()``.
    public func setNonBlocking(_ enabled: Bool) throws(SystemError) {
        let number = try openNumber(for: "fcntl")
        let flags = try systemCall("fcntl", on: label) { fcntl(number, F_GETFL) }
        let wanted = enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard wanted != flags else { return }
        _ = try systemCall("fcntl", on: label) { fcntl(number, F_SETFL, wanted) }
    }
}

import Glibc
import POSIX

/// Shared fixtures of the POSIX tests: unique temporary files, `/proc/self/fd` checks, and the IPv6 probe.
enum Fixture {
    /// A new, empty, unique file under the temporary directory (`mkstemp`), and its path.
    /// - Returns: the path; the caller removes it.
    static func temporaryFile(_ prefix: String = "posix") -> String {
        var template = Array("/tmp/streamkit-\(prefix)-XXXXXX".utf8CString)
        let number = mkstemp(&template)
        precondition(number >= 0, "mkstemp failed: \(Errno.current)")
        Glibc.close(number)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Where `/proc/self/fd/N` points, or `nil` when N is not open.
    /// - Parameter number: a descriptor number.
    /// - Returns: the target path.
    static func target(ofDescriptor number: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(number)", &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether descriptor `number` no longer refers to `path`: `fcntl(F_GETFD)` says `EBADF`, or (tests
    /// run in parallel) the number was reused since for another file.
    /// - Parameters:
    ///   - number: the number that was closed.
    ///   - path: the file it was open on.
    /// - Returns: `true` when it is closed.
    static func isClosed(_ number: Int32, openOn path: String) -> Bool {
        if fcntl(number, F_GETFD) == -1 && errno == EBADF { return true }
        return target(ofDescriptor: number) != path
    }

    /// A number from `/proc/sys` (read through ``FileDescriptor``).
    /// - Parameter name: for example `net/core/rmem_max`.
    /// - Returns: the value.
    static func sysctl(_ name: String) throws -> Int {
        let file = try FileDescriptor.open("/proc/sys/\(name)", .readOnly)
        defer { try? file.close() }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).filter(\.isNumber)
        guard let value = Int(text) else { throw SystemError("read", errno: .invalidArgument, subject: name) }
        return value
    }

    /// Starts a plain POSIX thread (not one of Swift concurrency's few pool threads, which a blocking call
    /// would hold up): for a blocking reader, or a thread that sends a wake-up.
    /// - Parameter body: what the thread runs.
    /// - Returns: the thread, to `pthread_join`.
    static func startThread(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(Body(body)).toOpaque())
        guard code == 0 else { throw SystemError("pthread_create", errno: Errno(code)) }
        return thread
    }

    /// Whether the CI environment requires every test to run (`CI=true`).
    static var isCI: Bool {
        guard let value = getenv("CI") else { return false }
        return String(cString: value) == "true"
    }

    /// Whether `::1` can be bound here (some containers switch IPv6 off); always `true` under CI, so the
    /// tests then fail instead of being skipped.
    static let ipv6LoopbackAvailable: Bool = {
        if isCI { return true }
        guard let socket = try? Socket(.udp, family: .ipv6) else { return false }
        defer { try? socket.close() }
        return (try? socket.bind(to: .loopback(.ipv6, port: 0))) != nil
    }()
}

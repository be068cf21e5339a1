#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a C call that returns -1 and sets `errno` on failure, again and again while it fails with
/// `EINTR` (a signal arrived during the call), and returns its result or its `errno`.
///
/// The one retry loop of StreamKit: every call the POSIX layer makes goes through it (except `close`,
/// which must not be retried on Linux: the descriptor is released even when it reports `EINTR`).
/// - Parameter call: the C call, for example `{ read(descriptor, buffer, count) }`.
/// - Returns: the call's non-negative result, or the `errno` of the first failure that was not `EINTR`.
@inlinable
public func retryOnInterrupt<Value: FixedWidthInteger & SignedInteger>(_ call: () -> Value) -> Result<Value, Errno> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        let code = errno
        if code != EINTR { return .failure(Errno(code)) }
    }
}

/// ``retryOnInterrupt(_:)``, throwing a ``SystemError`` that names the call and what it was made on.
/// - Parameters:
///   - name: the C call's name, for the error (`open`, `read` …).
///   - subject: the path, address or label, for the error.
///   - call: the C call.
/// - Returns: the call's non-negative result.
/// - Throws: ``SystemError`` with the `errno` of the failure.
@inlinable
public func systemCall<Value: FixedWidthInteger & SignedInteger>(
    _ name: String, on subject: String? = nil, _ call: () -> Value
) throws(SystemError) -> Value {
    switch retryOnInterrupt(call) {
    case let .success(value): return value
    case let .failure(code): throw SystemError(name, errno: code, subject: subject)
    }
}

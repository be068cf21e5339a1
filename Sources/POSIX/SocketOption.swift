#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXShims

/// A socket option (`setsockopt(2)`/`getsockopt(2)`): its level, its name, and the Swift type of its value
/// (`Bool` for switches, `Int` for sizes); the C value is an `int` either way.
public struct SocketOption<Value>: Sendable, Hashable {
    /// The level: `SOL_SOCKET`, `IPPROTO_TCP`, `IPPROTO_IPV6`.
    public let level: Int32
    /// The option: `SO_REUSEADDR`, `TCP_NODELAY` …
    public let name: Int32

    /// An option from its C level and name.
    /// - Parameters:
    ///   - level: the level.
    ///   - name: the option.
    public init(level: Int32, name: Int32) {
        self.level = level
        self.name = name
    }
}

extension SocketOption where Value == Bool {
    /// `SO_REUSEADDR`: bind a TCP port still in `TIME_WAIT`; set before ``Socket/bind(to:)``.
    public static var reuseAddress: SocketOption<Bool> { SocketOption(level: SOL_SOCKET, name: SO_REUSEADDR) }
    /// `SO_REUSEPORT`: several sockets share one port (the kernel spreads the load).
    public static var reusePort: SocketOption<Bool> { SocketOption(level: SOL_SOCKET, name: SO_REUSEPORT) }
    /// `SO_BROADCAST`: allow UDP datagrams to a broadcast address.
    public static var broadcast: SocketOption<Bool> { SocketOption(level: SOL_SOCKET, name: SO_BROADCAST) }
    /// `TCP_NODELAY`: send small segments at once (no Nagle delay) — for RTSP/RTMP interleaved media.
    public static var noDelay: SocketOption<Bool> { SocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY) }
    /// `IPV6_V6ONLY`: an IPv6 socket does not also take IPv4-mapped traffic.
    public static var ipv6Only: SocketOption<Bool> { SocketOption(level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY) }
}

extension SocketOption where Value == Int {
    /// `SO_RCVBUF`: the receive buffer size in bytes. Linux doubles the value set (for its bookkeeping)
    /// and caps it at `net.core.rmem_max`; reading it back gives the doubled value.
    public static var receiveBufferSize: SocketOption<Int> { SocketOption(level: SOL_SOCKET, name: SO_RCVBUF) }
    /// `SO_SNDBUF`: the send buffer size in bytes (doubled and capped like ``receiveBufferSize``).
    public static var sendBufferSize: SocketOption<Int> { SocketOption(level: SOL_SOCKET, name: SO_SNDBUF) }
    /// `SO_ERROR` (read only; reading clears it): the pending error, such as a non-blocking connect's outcome.
    public static var pendingError: SocketOption<Int> { SocketOption(level: SOL_SOCKET, name: SO_ERROR) }
}

extension Socket {
    /// Switches an option on or off (`setsockopt(2)`).
    /// - Parameters:
    ///   - option: for example ``SocketOption/reuseAddress``.
    ///   - value: on or off.
    /// - Throws: ``SystemError`` (call `setsockopt`): `ENOPROTOOPT` for an option of another protocol.
    public func setOption(_ option: SocketOption<Bool>, to value: Bool) throws(SystemError) {
        try setRawOption(option.level, option.name, value ? 1 : 0)
    }

    /// Sets a size option (`setsockopt(2)`).
    /// - Parameters:
    ///   - option: for example ``SocketOption/receiveBufferSize``.
    ///   - value: the value (clamped to the C `int` range).
    /// - Throws: ``SystemError`` (call `setsockopt`).
    public func setOption(_ option: SocketOption<Int>, to value: Int) throws(SystemError) {
        try setRawOption(option.level, option.name, Int32(clamping: value))
    }

    /// Reads a switch (`getsockopt(2)`).
    /// - Parameter option: the option.
    /// - Returns: whether it is on.
    /// - Throws: ``SystemError`` (call `getsockopt`).
    public func option(_ option: SocketOption<Bool>) throws(SystemError) -> Bool {
        try rawOption(option.level, option.name) != 0
    }

    /// Reads a size option (`getsockopt(2)`).
    /// - Parameter option: the option.
    /// - Returns: its value.
    /// - Throws: ``SystemError`` (call `getsockopt`).
    public func option(_ option: SocketOption<Int>) throws(SystemError) -> Int {
        Int(try rawOption(option.level, option.name))
    }

    private func setRawOption(_ level: Int32, _ name: Int32, _ value: Int32) throws(SystemError) {
        let number = try descriptor.openNumber(for: "setsockopt")
        var value = value
        _ = try systemCall("setsockopt", on: descriptor.label) {
            setsockopt(number, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    private func rawOption(_ level: Int32, _ name: Int32) throws(SystemError) -> Int32 {
        let number = try descriptor.openNumber(for: "getsockopt")
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try systemCall("getsockopt", on: descriptor.label) { getsockopt(number, level, name, &value, &length) }
        return value
    }
}

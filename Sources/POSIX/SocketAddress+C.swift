#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SocketAddress {
    /// Calls `body` with the address as a C `sockaddr_in`/`sockaddr_in6` and its length.
    /// - Parameter body: the C call, for example `{ bind(fd, $0, $1) }`.
    /// - Returns: what `body` returns.
    public func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(truncatingIfNeeded: low).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_scope_id = scopeID
            withUnsafeMutableBytes(of: &address.sin6_addr) { raw in
                raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    /// Reads an address the system filled in (`getsockname`, `recvfrom`, `accept`).
    /// - Parameter storage: a `sockaddr_storage` holding a `sockaddr_in` or `sockaddr_in6`.
    /// - Returns: the address, or `nil` for another family (a Unix socket).
    public init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            self.init(family: .ipv4, high: 0, low: UInt64(UInt32(bigEndian: address.sin_addr.s_addr)),
                      port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            let (high, low) = withUnsafeBytes(of: address.sin6_addr) { raw in
                (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                 UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
            self.init(family: .ipv6, high: high, low: low, port: UInt16(bigEndian: address.sin6_port),
                      scopeID: address.sin6_scope_id)
        default:
            return nil
        }
    }

    /// Calls a C function that fills in an address (`getsockname`, `recvfrom`, `accept`) and reads it.
    /// - Parameter body: the C call, given the storage and its length to fill.
    /// - Returns: the call's result and the address (`nil` when the family is not IP).
    static func filling<Value>(_ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Value)
        -> (Value, SocketAddress?) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let value = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
        }
        return (value, SocketAddress(storage))
    }
}

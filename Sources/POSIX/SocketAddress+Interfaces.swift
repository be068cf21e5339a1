#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SocketAddress {
    /// Whether this is the wildcard address of its family (`0.0.0.0` or `::`): a socket bound to it receives on
    /// every interface, and it is no address a peer can send to.
    public var isWildcard: Bool { addressBytes.allSatisfy { $0 == 0 } }

    /// Whether this is a loopback address (`127.0.0.0/8` or `::1`).
    public var isLoopback: Bool {
        let bytes = addressBytes
        return family == .ipv4 ? bytes.first == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }

    /// Whether this is an IPv6 link-local address (`fe80::/10`), which is reachable only through its interface.
    public var isLinkLocal: Bool {
        let bytes = addressBytes
        return family == .ipv6 && bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80
    }

    /// The addresses of the interfaces that are up, of one family (`getifaddrs(3)`), each with `port`: what a
    /// socket bound to the wildcard address can be reached at. Loopback addresses come last; IPv6 link-local
    /// addresses are left out (a peer cannot use them without knowing our interface). Empty when the system
    /// call fails.
    /// - Parameters:
    ///   - family: IPv4 or IPv6.
    ///   - port: the port to give each address.
    /// - Returns: the addresses, without repeats, in the order of the interfaces with loopback last.
    public static func interfaceAddresses(_ family: Family, port: UInt16) -> [SocketAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [SocketAddress] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = current.pointee.ifa_flags
            guard flags & UInt32(IFF_UP) != 0, let raw = current.pointee.ifa_addr,
                  Int32(raw.pointee.sa_family) == family.rawValue else { continue }
            var storage = sockaddr_storage()
            let length = family == .ipv4 ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: UnsafeRawPointer(raw), count: length))
            }
            guard var address = SocketAddress(storage), !address.isLinkLocal else { continue }
            address.port = port
            if !found.contains(address) { found.append(address) }
        }
        return found.filter { !$0.isLoopback } + found.filter(\.isLoopback)
    }
}

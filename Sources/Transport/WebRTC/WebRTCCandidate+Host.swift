import POSIX
import RTP

extension WebRTCCandidate {
    /// The host candidates of a bound UDP port (RFC 8445 §5.1.1.1): its own address, or — for a port bound to the
    /// wildcard address, which no peer can send to — one per address of the interfaces that are up
    /// (``SocketAddress/interfaceAddresses(_:port:)``, loopback last), as MediaMTX and libwebrtc list theirs.
    ///
    /// Priorities follow RFC 8445 §5.1.2.1 for host candidates of component 1: type preference 126, a local
    /// preference of 65535 for the first address and one less for each next one. Each address has its own
    /// foundation (§5.1.1.3: candidates of different base addresses differ).
    /// - Parameter bound: the socket's local address.
    /// - Returns: the candidates, best first; the wildcard address itself when no interface is up.
    static func hostCandidates(of bound: SocketAddress) -> [WebRTCCandidate] {
        var addresses = bound.isWildcard ? SocketAddress.interfaceAddresses(bound.family, port: bound.port) : [bound]
        if addresses.isEmpty { addresses = [bound] }
        return addresses.prefix(16).enumerated().map { index, address in
            let localPreference = UInt32(65_535 - index)
            return WebRTCCandidate(foundation: String(index + 1), priority: 126 << 24 | localPreference << 8 | 255,
                                   address: address.host, port: address.port)
        }
    }
}

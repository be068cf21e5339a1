import POSIX

/// Where one set-up track's packets go and come from: an RTP/RTCP UDP socket pair with the peer's ports,
/// or the two interleaved channels of the RTSP connection.
struct RTSPTrackChannel: Sendable {
    /// The UDP sockets and the peer's ports, or `nil` when interleaved.
    var sockets: (rtp: UDPSocket, rtcp: UDPSocket)?
    /// The peer's RTP and RTCP addresses (UDP).
    var peer: (rtp: SocketAddress, rtcp: SocketAddress)?
    /// The interleaved channels (TCP).
    var channels: (rtp: UInt8, rtcp: UInt8)

    /// Binds an even/odd UDP port pair on the host's loopback or any address (RFC 3550 §11).
    /// - Parameters:
    ///   - family: IPv4 or IPv6.
    ///   - loop: the event loop.
    /// - Returns: the two sockets.
    /// - Throws: ``RTSPClientError/transport(_:)`` when no pair could be bound.
    static func bindPortPair(family: SocketAddress.Family, on loop: EventLoop) throws(RTSPClientError) -> (rtp: UDPSocket, rtcp: UDPSocket) {
        var lastError = TransportError.closed
        for _ in 0..<64 {
            let base = UInt16.random(in: 20_000...60_000) & ~1
            do {
                let rtp = try UDPSocket(bindingTo: .any(family, port: base), on: loop)
                do {
                    let rtcp = try UDPSocket(bindingTo: .any(family, port: base + 1), on: loop)
                    return (rtp, rtcp)
                } catch {
                    rtp.close()
                    lastError = error
                }
            } catch {
                lastError = error
            }
        }
        throw .transport(lastError)
    }

}

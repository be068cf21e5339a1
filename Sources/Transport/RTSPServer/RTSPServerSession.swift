import POSIX

/// One RTSP session of the server (RFC 2326 §3.4): the stream it set up, each track's delivery, whether it plays,
/// and when its client was last heard from.
struct RTSPServerSession: Sendable {
    let identifier: String
    let stream: RTSPLiveStream
    /// The connection that made it (for interleaved delivery, the one carrying the media).
    let connection: TCPConnection
    var deliveries: [RTSPLiveStream.Delivery?]
    var isPlaying = false
    var lastHeard: ContinuousClock.Instant

    init(identifier: String, stream: RTSPLiveStream, connection: TCPConnection) {
        self.identifier = identifier
        self.stream = stream
        self.connection = connection
        deliveries = Array(repeating: nil, count: stream.trackCount)
        lastHeard = .now
    }

    /// Whether any track travels in the RTSP connection.
    var isInterleaved: Bool {
        deliveries.contains { if case .interleaved? = $0 { true } else { false } }
    }

    /// Whether an RTCP datagram from `address` is this client's.
    func owns(rtcpAddress address: SocketAddress) -> Bool {
        deliveries.contains { delivery in
            if case let .udp(rtp, rtcp)? = delivery { return rtcp == address || rtp == address }
            return false
        }
    }
}

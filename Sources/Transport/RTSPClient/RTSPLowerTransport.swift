/// How RTP and RTCP travel once SETUP agreed (RFC 2326 §12.39).
public enum RTSPLowerTransport: String, Sendable, Hashable, CustomStringConvertible {
    /// Over UDP, each track on a port pair of its own (RTP on the even port, RTCP on the next).
    case udp
    /// Interleaved on the RTSP TCP connection (RFC 2326 §10.12), channels 2n and 2n+1 for track n.
    case tcp

    /// `udp` or `tcp`.
    public var description: String { rawValue }
}

import Bitstream

/// One packet a client or publisher received: which track, whether RTCP, the bytes.
public struct RTSPMediaPacket: Sendable, Hashable {
    /// The track, in the order of ``RTSPClient/setup(control:transport:)`` calls (0, 1…).
    public var track: Int
    /// Whether it is RTCP (else RTP).
    public var isControl: Bool
    /// The packet: a view into the datagram or the interleaved frame it arrived in.
    public var bytes: ByteView

    /// Creates a packet.
    /// - Parameters:
    ///   - track: the track.
    ///   - isControl: whether it is RTCP.
    ///   - bytes: the packet.
    public init(track: Int, isControl: Bool, bytes: ByteView) {
        self.track = track
        self.isControl = isControl
        self.bytes = bytes
    }
}

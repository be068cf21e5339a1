/// What ``RTSPStreamParser`` takes out of a TCP stream: a message or an interleaved frame.
public enum RTSPStreamItem: Sendable {
    /// A request (what a server reads).
    case request(RTSPRequest)
    /// A response (what a client reads).
    case response(RTSPResponse)
    /// A `$` frame (RTP or RTCP over the RTSP connection).
    case interleaved(RTSPInterleavedFrame)
}

/// An RTSP 1.0 publisher (RFC 2326 §10.3, §10.11 — how one pushes to MediaMTX-like servers): ANNOUNCE
/// with our SDP, SETUP of each track with `mode=record` over UDP or interleaved TCP, RECORD, then the
/// RTP and RTCP packets go out with ``send(_:)``; keep-alive until ``teardown()``.
///
/// ```swift
/// let publisher = try await RTSPPublisher(url: "rtsp://127.0.0.1:8554/x", on: loop)
/// try await publisher.announce(sdp: sdpText)
/// let video = try await publisher.setup(control: "trackID=0", transport: .udp)
/// try await publisher.record()
/// try await publisher.send(rtpPacket, track: video)
/// await publisher.teardown()
/// ```
public final class RTSPPublisher: Sendable {
    private let core: RTSPSessionCore

    /// The server's URL, as requests name it.
    public var url: RTSPURL { core.url }

    /// RTCP (receiver reports) the server sends back, if it does.
    public var incoming: AsyncStream<RTSPMediaPacket> { core.packets }

    /// Connects to the server.
    /// - Parameters:
    ///   - url: `rtsp://[user:password@]host[:port]/path`.
    ///   - credentials: the user and password if not in the URL.
    ///   - loop: the event loop that runs the sockets.
    /// - Throws: ``RTSPClientError``.
    public init(url: String, credentials: RTSPCredentials? = nil, on loop: EventLoop) async throws(RTSPClientError) {
        core = try await RTSPSessionCore(url: try RTSPURL(parsing: url), credentials: credentials, on: loop)
    }

    /// ANNOUNCE (RFC 2326 §10.3): the stream's SDP.
    /// - Parameter sdp: the SDP text; each track's `a=control` is what ``setup(control:transport:)`` names.
    /// - Throws: ``RTSPClientError``.
    public func announce(sdp: String) async throws(RTSPClientError) {
        try await core.control.request(.announce, core.url.requestURL, headers: ["Content-Type": "application/sdp"], body: Array(sdp.utf8))
    }

    /// SETUP of one track for recording.
    /// - Parameters:
    ///   - control: the track's `a=control` value from the announced SDP.
    ///   - transport: UDP or interleaved TCP.
    /// - Returns: the track's number for ``send(_:)``.
    /// - Throws: ``RTSPClientError``.
    public func setup(control: String, transport: RTSPLowerTransport) async throws(RTSPClientError) -> Int {
        try await core.setup(core.resolve(control: control, base: core.url.requestURL), transport: transport, record: true)
    }

    /// RECORD (RFC 2326 §10.11), then keep-alive until ``teardown()``.
    /// - Throws: ``RTSPClientError``.
    public func record() async throws(RTSPClientError) {
        try await core.start(.record, target: core.url.requestURL)
    }

    /// Sends one RTP or RTCP packet on a set-up track (waits while the socket's buffer is full).
    /// - Parameters:
    ///   - bytes: the packet.
    ///   - track: the track from ``setup(control:transport:)``.
    ///   - isControl: whether it is RTCP (a sender report), else RTP.
    /// - Throws: ``RTSPClientError``.
    public func send(_ bytes: [UInt8], track: Int, isControl: Bool = false) async throws(RTSPClientError) {
        try await core.send(bytes, track: track, isControl: isControl)
    }

    /// TEARDOWN and closes the connection and the sockets.
    public func teardown() async {
        await core.teardown(target: core.url.requestURL)
    }
}

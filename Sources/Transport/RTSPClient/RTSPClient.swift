/// An RTSP 1.0 client that plays a stream (RFC 2326 §A.1): DESCRIBE for the SDP, SETUP of each track
/// over UDP or interleaved TCP, PLAY, keep-alive within the session timeout (GET_PARAMETER, or OPTIONS
/// when the server lacks it), TEARDOWN. Basic and Digest (MD5) challenges are answered with the
/// credentials given or those in the URL. The RTP and RTCP packets come out of ``packets``.
///
/// ```swift
/// let loop = try EventLoop()
/// let client = try await RTSPClient(url: "rtsp://127.0.0.1:8554/live", on: loop)
/// let description = try await client.describe()      // SDP text; parse it with RTP's SessionDescription
/// let video = try await client.setup(control: "trackID=0", transport: .tcp)
/// try await client.play()
/// for await packet in client.packets where packet.track == video && !packet.isControl { … }
/// await client.teardown()
/// ```
public final class RTSPClient: Sendable {
    /// What DESCRIBE returned.
    public struct Description: Sendable, Hashable {
        /// The SDP (RFC 8866) text.
        public var sdp: String
        /// The URL tracks' control attributes are relative to (Content-Base, else the request URL).
        public var contentBase: String
    }

    private let core: RTSPSessionCore
    private let base = MutexBox("")

    /// The server's URL, as requests name it.
    public var url: RTSPURL { core.url }

    /// Every RTP and RTCP packet received, in arrival order; ends after ``teardown()`` or when the
    /// connection closes.
    public var packets: AsyncStream<RTSPMediaPacket> { core.packets }

    /// Connects to the server.
    /// - Parameters:
    ///   - url: `rtsp://[user:password@]host[:port]/path`.
    ///   - credentials: the user and password if not in the URL.
    ///   - loop: the event loop that runs the sockets.
    /// - Throws: ``RTSPClientError``.
    public init(url: String, credentials: RTSPCredentials? = nil, on loop: EventLoop) async throws(RTSPClientError) {
        core = try await RTSPSessionCore(url: try RTSPURL(parsing: url), credentials: credentials, on: loop)
        base.value = core.url.requestURL
    }

    /// DESCRIBE (RFC 2326 §10.2).
    /// - Returns: the SDP and the base URL of its tracks.
    /// - Throws: ``RTSPClientError``.
    public func describe() async throws(RTSPClientError) -> Description {
        let response = try await core.control.request(.describe, core.url.requestURL, headers: ["Accept": "application/sdp"])
        guard !response.body.isEmpty else { throw .missing("SDP body", method: "DESCRIBE") }
        let contentBase = response.headers["Content-Base"] ?? response.headers["Content-Location"] ?? core.url.requestURL
        base.value = contentBase
        return Description(sdp: String(decoding: response.body, as: UTF8.self), contentBase: contentBase)
    }

    /// SETUP of one track (RFC 2326 §10.4).
    /// - Parameters:
    ///   - control: the track's `a=control` value (relative to the content base, absolute, or `*`).
    ///   - transport: UDP or interleaved TCP.
    /// - Returns: the track's number in ``packets`` (0 for the first SETUP, then 1…).
    /// - Throws: ``RTSPClientError`` (a server that refuses the transport answers 461).
    public func setup(control: String, transport: RTSPLowerTransport) async throws(RTSPClientError) -> Int {
        try await core.setup(core.resolve(control: control, base: base.value), transport: transport, record: false)
    }

    /// PLAY (RFC 2326 §10.5), then keep-alive until ``teardown()``.
    /// - Throws: ``RTSPClientError``.
    public func play() async throws(RTSPClientError) {
        try await core.start(.play, target: base.value)
    }

    /// Sends an RTCP packet (a receiver report) on a track.
    /// - Parameters:
    ///   - rtcp: the compound RTCP packet.
    ///   - track: the track.
    /// - Throws: ``RTSPClientError``.
    public func send(rtcp: [UInt8], track: Int) async throws(RTSPClientError) {
        try await core.send(rtcp, track: track, isControl: true)
    }

    /// TEARDOWN (RFC 2326 §10.7) and closes the connection and the sockets; ``packets`` ends.
    public func teardown() async {
        await core.teardown(target: base.value)
    }
}

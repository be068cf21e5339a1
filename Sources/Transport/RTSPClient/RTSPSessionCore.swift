import Bitstream
import POSIX
import Synchronization

/// What the RTSP client and the publisher share: the control connection, SETUP of tracks over UDP or
/// interleaved TCP, the packets in both directions, keep-alive within the session timeout and TEARDOWN.
final class RTSPSessionCore: Sendable {
    let url: RTSPURL
    let control: RTSPControlConnection
    let packets: AsyncStream<RTSPMediaPacket>
    private let continuation: AsyncStream<RTSPMediaPacket>.Continuation
    private let loop: EventLoop
    private let tracks = Mutex<[RTSPTrackChannel]>([])
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// The most packets waiting for a slow reader; beyond it the newest are dropped (and the receiver
    /// sees them as lost, by sequence number).
    static let packetQueueLimit = 8192

    init(url: RTSPURL, credentials: RTSPCredentials?, on loop: EventLoop) async throws(RTSPClientError) {
        self.url = url
        self.loop = loop
        let (stream, continuation) = AsyncStream.makeStream(of: RTSPMediaPacket.self, bufferingPolicy: .bufferingOldest(Self.packetQueueLimit))
        packets = stream
        self.continuation = continuation
        let credentials = credentials ?? url.user.map { RTSPCredentials(user: $0, password: url.password ?? "") }
        control = try await RTSPControlConnection(url: url, credentials: credentials, on: loop) { channel, payload in
            continuation.yield(RTSPMediaPacket(track: Int(channel / 2), isControl: channel % 2 == 1, bytes: payload))
        }
    }

    /// The URL a track's control attribute names, against the content base (RFC 2326 §C.1.1).
    func resolve(control: String, base: String) -> String {
        if control.lowercased().hasPrefix("rtsp://") { return control }
        if control == "*" || control.isEmpty { return base }
        return base.hasSuffix("/") ? base + control : base + "/" + control
    }

    /// Sends SETUP for one track.
    /// - Parameters:
    ///   - target: the track's URL.
    ///   - transport: UDP or interleaved TCP.
    ///   - record: whether the session publishes (`mode=record`).
    /// - Returns: the track's number.
    func setup(_ target: String, transport: RTSPLowerTransport, record: Bool) async throws(RTSPClientError) -> Int {
        let track = tracks.withLock { $0.count }
        switch transport {
        case .tcp:
            let channels = UInt8(track * 2)...UInt8(track * 2 + 1)
            let offer = RTSPTransportHeader(lowerTransport: .tcp, interleavedChannels: channels, mode: record ? "record" : nil)
            let response = try await control.request(.setup, target, headers: ["Transport": offer.headerValue])
            let agreed = response.headers["Transport"].flatMap { try? RTSPTransportHeader(parsing: $0) }?.interleavedChannels ?? channels
            tracks.withLock { $0.append(RTSPTrackChannel(sockets: nil, peer: nil, channels: (agreed.lowerBound, agreed.upperBound))) }
        case .udp:
            let address = try url.socketAddress()
            let sockets = try RTSPTrackChannel.bindPortPair(family: address.family, on: loop)
            let offer = RTSPTransportHeader(lowerTransport: .udp, clientPorts: sockets.rtp.localAddress.port...sockets.rtcp.localAddress.port,
                                            mode: record ? "record" : nil)
            let response: RTSPResponse
            do throws(RTSPClientError) {
                response = try await control.request(.setup, target, headers: ["Transport": offer.headerValue])
            } catch {
                sockets.rtp.close()
                sockets.rtcp.close()
                throw error
            }
            guard let ports = response.headers["Transport"].flatMap({ try? RTSPTransportHeader(parsing: $0) })?.serverPorts else {
                sockets.rtp.close()
                sockets.rtcp.close()
                throw .missing("server_port in the Transport header", method: "SETUP")
            }
            var rtpPeer = address, rtcpPeer = address
            rtpPeer.port = ports.lowerBound
            rtcpPeer.port = ports.count > 1 ? ports.upperBound : ports.lowerBound &+ 1
            let channel = RTSPTrackChannel(sockets: sockets, peer: (rtpPeer, rtcpPeer), channels: (UInt8(track * 2), UInt8(track * 2 + 1)))
            tracks.withLock { $0.append(channel) }
            startReceiving(sockets.rtp, track: track, isControl: false)
            startReceiving(sockets.rtcp, track: track, isControl: true)
        }
        return track
    }

    private func startReceiving(_ socket: UDPSocket, track: Int, isControl: Bool) {
        let continuation = self.continuation
        let task = Task {
            while !Task.isCancelled {
                guard let datagram = try? await socket.receive() else { return }
                continuation.yield(RTSPMediaPacket(track: track, isControl: isControl, bytes: ByteView(datagram.bytes)))
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// Sends PLAY or RECORD, then keeps the session alive.
    func start(_ method: RTSPMethod, target: String) async throws(RTSPClientError) {
        try await control.request(method, target, headers: ["Range": "npt=0.000-"])
        var keepAlive = RTSPMethod.getParameter
        if let options = try? await control.request(.options, url.requestURL), let methods = options.headers["Public"],
           !RTSPMethod.methods(inPublicHeader: methods).contains(.getParameter) {
            keepAlive = .options
        }
        let control = self.control, url = self.url
        // RFC 2326 §12.37: the session ends after `timeout` seconds (60 by default) without a request.
        let interval = max(2, min(30, (control.session?.timeout ?? 60) / 2))
        let method = keepAlive
        let task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard !Task.isCancelled else { return }
                // RFC 2326 §10.8: GET_PARAMETER without a body is a ping; a server that lacks it gets OPTIONS.
                do throws(RTSPClientError) { try await control.request(method, url.requestURL) } catch {
                    if case .connectionClosed = error { return }
                }
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// Sends one packet on its track.
    func send(_ bytes: [UInt8], track: Int, isControl: Bool) async throws(RTSPClientError) {
        let channel = tracks.withLock { $0.indices.contains(track) ? $0[track] : nil }
        guard let channel else { throw .unknownTrack(track) }
        if let sockets = channel.sockets, let peer = channel.peer {
            do {
                if isControl {
                    try await sockets.rtcp.send(bytes, to: peer.rtcp)
                } else {
                    try await sockets.rtp.send(bytes, to: peer.rtp)
                }
            } catch {
                throw .transport(error)
            }
        } else {
            try await control.sendInterleaved(bytes, channel: isControl ? channel.channels.rtcp : channel.channels.rtp)
        }
    }

    /// Sends TEARDOWN (errors ignored: the session ends either way) and closes everything.
    func teardown(target: String) async {
        _ = try? await control.request(.teardown, target)
        close()
    }

    /// Closes the sockets and ends ``packets``.
    func close() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        for channel in tracks.withLock({ $0 }) {
            channel.sockets?.rtp.close()
            channel.sockets?.rtcp.close()
        }
        control.close()
        continuation.finish()
    }
}

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
    private let timeoutSeconds = Mutex(60)
    private let keepAliveMethod = Mutex("GET_PARAMETER")
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
        let mode = record ? ";mode=record" : ""
        switch transport {
        case .tcp:
            let channels = (UInt8(track * 2), UInt8(track * 2 + 1))
            let response = try await control.request("SETUP", target, headers: [
                ("Transport", "RTP/AVP/TCP;unicast;interleaved=\(channels.0)-\(channels.1)\(mode)"),
            ])
            noteTimeout(response)
            var agreed = channels
            if let header = response["Transport"], let pair = RTSPTrackChannel.pair("interleaved", in: header),
               let rtp = UInt8(exactly: pair.0), let rtcp = UInt8(exactly: pair.1) {
                agreed = (rtp, rtcp)
            }
            tracks.withLock { $0.append(RTSPTrackChannel(sockets: nil, peer: nil, channels: agreed)) }
        case .udp:
            let address = try url.socketAddress()
            let sockets = try RTSPTrackChannel.bindPortPair(family: address.family, on: loop)
            let response: RTSPResponse
            do {
                response = try await control.request("SETUP", target, headers: [
                    ("Transport", "RTP/AVP;unicast;client_port=\(sockets.rtp.localAddress.port)-\(sockets.rtcp.localAddress.port)\(mode)"),
                ])
            } catch {
                sockets.rtp.close()
                sockets.rtcp.close()
                throw error
            }
            noteTimeout(response)
            guard let header = response["Transport"], let ports = RTSPTrackChannel.pair("server_port", in: header),
                  let rtpPort = UInt16(exactly: ports.0), let rtcpPort = UInt16(exactly: ports.1) else {
                sockets.rtp.close()
                sockets.rtcp.close()
                throw .missing("server_port in the Transport header", method: "SETUP")
            }
            var rtpPeer = address, rtcpPeer = address
            rtpPeer.port = rtpPort
            rtcpPeer.port = rtcpPort
            let channel = RTSPTrackChannel(sockets: sockets, peer: (rtpPeer, rtcpPeer), channels: (UInt8(track * 2), UInt8(track * 2 + 1)))
            tracks.withLock { $0.append(channel) }
            startReceiving(sockets.rtp, track: track, isControl: false)
            startReceiving(sockets.rtcp, track: track, isControl: true)
        }
        return track
    }

    private func noteTimeout(_ response: RTSPResponse) {
        guard let session = response["Session"] else { return }
        for parameter in session.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=")
            if parts.count == 2, parts[0].trimmingSpaces().lowercased() == "timeout", let seconds = Int(parts[1].trimmingSpaces()), seconds > 0 {
                timeoutSeconds.withLock { $0 = seconds }
            }
        }
    }

    private func startReceiving(_ socket: UDPSocket, track: Int, isControl: Bool) {
        let continuation = self.continuation
        let task = Task {
            while !Task.isCancelled {
                guard let datagram = try? await socket.receive() else { return }
                continuation.yield(RTSPMediaPacket(track: track, isControl: isControl, bytes: datagram.bytes))
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// Sends PLAY or RECORD, then keeps the session alive.
    func start(_ method: String, target: String) async throws(RTSPClientError) {
        let headers: [(String, String)] = method == "PLAY" ? [("Range", "npt=0.000-")] : [("Range", "npt=0.000-")]
        try await control.request(method, target, headers: headers)
        if let options = try? await control.request("OPTIONS", url.requestURL), let public_ = options["Public"],
           !public_.uppercased().contains("GET_PARAMETER") {
            keepAliveMethod.withLock { $0 = "OPTIONS" }
        }
        let control = self.control, url = self.url
        let interval = max(2, min(30, timeoutSeconds.withLock { $0 } / 2))
        let method = keepAliveMethod.withLock { $0 }
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
    func send(_ packet: RTSPMediaPacket) async throws(RTSPClientError) {
        let channel = tracks.withLock { $0.indices.contains(packet.track) ? $0[packet.track] : nil }
        guard let channel else { throw .unknownTrack(packet.track) }
        if let sockets = channel.sockets, let peer = channel.peer {
            do {
                if packet.isControl {
                    try await sockets.rtcp.send(packet.bytes, to: peer.rtcp)
                } else {
                    try await sockets.rtp.send(packet.bytes, to: peer.rtp)
                }
            } catch {
                throw .transport(error)
            }
        } else {
            try await control.sendInterleaved(packet.bytes, channel: packet.isControl ? channel.channels.rtcp : channel.channels.rtp)
        }
    }

    /// Sends TEARDOWN (errors ignored: the session ends either way) and closes everything.
    func teardown(target: String) async {
        _ = try? await control.request("TEARDOWN", target)
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

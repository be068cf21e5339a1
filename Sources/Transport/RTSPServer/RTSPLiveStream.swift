import POSIX
import Synchronization

/// One live stream an ``RTSPServer`` serves at a path: the caller's SDP, and the packets the caller publishes,
/// which every playing client gets — over UDP or interleaved in its RTSP connection.
///
/// Publishing never waits: a UDP datagram the kernel cannot take now is dropped (and counted), and an interleaved
/// client whose bounded send queue is full has stopped reading — it is dropped whole, so it cannot slow the others.
///
/// ```swift
/// let stream = server.addStream(path: "live", sdp: sdpText)
/// stream.publishRTP(packet, track: 0, timestamp: rtpTimestamp)
/// ```
public final class RTSPLiveStream: Sendable {
    /// What has happened on the stream so far.
    public struct Statistics: Hashable, Sendable {
        /// RTP packets published.
        public var rtpPacketsPublished = 0
        /// RTCP packets published.
        public var rtcpPacketsPublished = 0
        /// Packet copies handed to clients (UDP sends and interleaved frames queued).
        public var packetsDelivered = 0
        /// UDP datagrams the kernel could not take (dropped), or that failed.
        public var udpSendsDropped = 0
        /// Clients dropped because their send queue was full (they stopped reading).
        public var clientsDropped = 0
        /// Clients playing now.
        public var playingClients = 0
    }

    /// How a track reaches one client.
    enum Delivery: Sendable {
        case udp(rtp: SocketAddress, rtcp: SocketAddress)
        case interleaved(rtp: UInt8, rtcp: UInt8, connection: TCPConnection)
    }

    struct Subscriber: Sendable {
        let sessionID: String
        /// Indexed by track; `nil` for a track the client did not SETUP.
        let deliveries: [Delivery?]
    }

    struct TrackState: Sendable {
        var lastSequenceNumber: UInt16?
        var lastTimestamp: UInt32?
    }

    struct State: Sendable {
        var subscribers: [Subscriber] = []
        var tracks: [TrackState]
        var statistics = Statistics()
    }

    /// The path, without slashes around it (`live`).
    public let path: String
    /// The SDP sent in DESCRIBE (with an `a=control:` for every media section): the latest given to
    /// ``updateSessionDescription(_:)``, else the one the stream was added with.
    public var sessionDescription: String { currentDescription.withLock { $0 } }
    private let currentDescription: Mutex<String>
    /// Each track's control attribute, in SDP order (`trackID=0` …).
    public let trackControls: [String]
    private let rtpSocket: UDPSocket
    private let rtcpSocket: UDPSocket
    private let report: @Sendable (RTSPServerEvent) -> Void
    let state: Mutex<State>

    init(path: String, sdp: String, rtpSocket: UDPSocket, rtcpSocket: UDPSocket, report: @escaping @Sendable (RTSPServerEvent) -> Void) {
        self.report = report
        self.path = path
        let controls = SDPControls(sdp: sdp)
        currentDescription = Mutex(controls.description)
        trackControls = controls.controls
        self.rtpSocket = rtpSocket
        self.rtcpSocket = rtcpSocket
        state = Mutex(State(tracks: Array(repeating: TrackState(), count: controls.controls.count)))
    }

    /// Replaces the SDP that DESCRIBE answers from now on, for a stream whose parameters changed midway (a new SPS and
    /// PPS, another picture size: the `sprop-parameter-sets` of RFC 6184 §8.2.1 describe the new ones). Clients already
    /// playing go on: the new parameter sets reach them in-band before the next IDR (RFC 6184 §8.4).
    /// - Parameter sdp: the new SDP; its media sections must be the stream's tracks, in the same order.
    /// - Returns: whether it was taken (`false` when its tracks' controls differ from the stream's).
    @discardableResult
    public func updateSessionDescription(_ sdp: String) -> Bool {
        let controls = SDPControls(sdp: sdp)
        guard controls.controls == trackControls else { return false }
        currentDescription.withLock { $0 = controls.description }
        return true
    }

    /// How many tracks (media sections) the SDP has.
    public var trackCount: Int { trackControls.count }

    /// A snapshot of the counters.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.playingClients = state.subscribers.count
            return statistics
        }
    }

    /// Sends one RTP packet of a track to every playing client.
    /// - Parameters:
    ///   - packet: the whole RTP packet (at most 65535 bytes); its sequence number is read for `RTP-Info`.
    ///   - track: the track's index in the SDP.
    ///   - timestamp: its RTP timestamp (for `RTP-Info` to late joiners).
    public func publishRTP(_ packet: UnsafeRawBufferPointer, track: Int, timestamp: UInt32) {
        let sequenceNumber: UInt16? = packet.count >= 4 ? UInt16(packet[2]) << 8 | UInt16(packet[3]) : nil
        deliver(packet, track: track, isRTCP: false, sequenceNumber: sequenceNumber, timestamp: timestamp)
    }

    /// ``publishRTP(_:track:timestamp:)`` for an array.
    /// - Parameters:
    ///   - packet: the RTP packet.
    ///   - track: the track's index.
    ///   - timestamp: its RTP timestamp.
    public func publishRTP(_ packet: [UInt8], track: Int, timestamp: UInt32) {
        packet.withUnsafeBytes { publishRTP($0, track: track, timestamp: timestamp) }
    }

    /// Sends one RTCP packet (a sender report, a BYE) of a track to every playing client.
    /// - Parameters:
    ///   - packet: the RTCP packet (compound or not).
    ///   - track: the track's index.
    public func publishRTCP(_ packet: UnsafeRawBufferPointer, track: Int) {
        deliver(packet, track: track, isRTCP: true, sequenceNumber: nil, timestamp: nil)
    }

    /// ``publishRTCP(_:track:)`` for an array.
    /// - Parameters:
    ///   - packet: the RTCP packet.
    ///   - track: the track's index.
    public func publishRTCP(_ packet: [UInt8], track: Int) {
        packet.withUnsafeBytes { publishRTCP($0, track: track) }
    }

    private func deliver(_ packet: UnsafeRawBufferPointer, track: Int, isRTCP: Bool, sequenceNumber: UInt16?, timestamp: UInt32?) {
        guard packet.count <= RTSPInterleavedFrame.maximumPayloadLength, packet.count > 0 else { return }
        let length = packet.count
        let dropped: [(String, TCPConnection)] = state.withLock { state in
            guard state.tracks.indices.contains(track) else { return [] }
            if isRTCP {
                state.statistics.rtcpPacketsPublished += 1
            } else {
                state.statistics.rtpPacketsPublished += 1
                state.tracks[track].lastSequenceNumber = sequenceNumber
                state.tracks[track].lastTimestamp = timestamp
            }
            var dropped: [(String, TCPConnection)] = []
            for subscriber in state.subscribers {
                guard track < subscriber.deliveries.count, let delivery = subscriber.deliveries[track] else { continue }
                switch delivery {
                case let .udp(rtp, rtcp):
                    let sent = (try? (isRTCP ? rtcpSocket : rtpSocket).trySend(packet, to: isRTCP ? rtcp : rtp)) ?? false
                    if sent { state.statistics.packetsDelivered += 1 } else { state.statistics.udpSendsDropped += 1 }
                case let .interleaved(rtpChannel, rtcpChannel, connection):
                    var header: (UInt8, UInt8, UInt8, UInt8) = (0x24, isRTCP ? rtcpChannel : rtpChannel, UInt8(length >> 8), UInt8(length & 0xFF))
                    let queued = withUnsafeBytes(of: &header) { headerBytes in
                        (try? connection.enqueueForNextTurn(headerBytes, packet)) ?? false
                    }
                    if queued {
                        state.statistics.packetsDelivered += 1
                    } else if !dropped.contains(where: { $0.0 == subscriber.sessionID }) {
                        dropped.append((subscriber.sessionID, connection))
                    }
                }
            }
            if !dropped.isEmpty {
                state.subscribers.removeAll { subscriber in
                    subscriber.deliveries.contains { delivery in
                        if case let .interleaved(_, _, connection)? = delivery { return dropped.contains { $0.1 === connection } }
                        return false
                    }
                }
                // A connection already closed (its client left) is removed without counting as a slow client.
                dropped.removeAll { $0.1.isClosed }
                state.statistics.clientsDropped += dropped.count
            }
            return dropped
        }
        // The connection's task sees the close and tears its sessions down.
        for (session, connection) in dropped {
            report(.slowClientDropped(session: session, peer: connection.remoteAddress))
            connection.close()
        }
    }

    func subscribe(_ subscriber: Subscriber) {
        state.withLock { state in
            state.subscribers.removeAll { $0.sessionID == subscriber.sessionID }
            state.subscribers.append(subscriber)
        }
    }

    func unsubscribe(sessionID: String) {
        state.withLock { state in state.subscribers.removeAll { $0.sessionID == sessionID } }
    }

    /// The last sequence number and timestamp published on each track (for `RTP-Info`).
    func trackStates() -> [TrackState] {
        state.withLock { $0.tracks }
    }
}

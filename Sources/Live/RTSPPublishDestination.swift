import Foundation
import MediaCore
import RTP
import Synchronization
import Transport

/// Publishing to an RTSP server that records (MediaMTX, `ffmpeg -rtsp_flags listen`, Wowza …) as a destination of
/// a ``LivePipeline``, through Transport's ``RTSPPublisher``: ANNOUNCE with the stream's SDP (RFC 2326 §10.3, the SDP
/// of RFC 8866 with an `a=control` per track), SETUP of each track with `mode=record` (§10.4, §12.39) over
/// interleaved TCP (§10.12) or UDP, RECORD (§10.11), then the RTP packets (H.264 RFC 6184, H.265 RFC 7798, AAC
/// RFC 3640) and each track's RTCP sender reports (RFC 3550 §6.4.1); at the end a BYE per track (RFC 3550 §6.6) and
/// TEARDOWN (§10.7).
///
/// ```swift
/// pipeline.add(RTSPPublishDestination(url: "rtsp://127.0.0.1:8554/live"))
/// ```
public final class RTSPPublishDestination: LiveDestination {
    /// How the destination publishes.
    public struct Options: Sendable {
        /// How the packets travel: interleaved in the RTSP connection (`.tcp`, the default: nothing is lost, and
        /// firewalls let it through) or on UDP ports of their own.
        public var transport: RTSPLowerTransport
        /// The user and password when the URL has none (Basic or Digest, as the server asks: RFC 2617).
        public var credentials: RTSPCredentials?
        /// The largest RTP packet.
        public var maximumPacketSize: Int

        /// Creates options.
        /// - Parameters:
        ///   - transport: `.tcp` (default) or `.udp`.
        ///   - credentials: the user and password, if the URL has none.
        ///   - maximumPacketSize: the largest RTP packet (default 1472: a 1500-byte MTU less IPv4 and UDP).
        public init(transport: RTSPLowerTransport = .tcp, credentials: RTSPCredentials? = nil, maximumPacketSize: Int = 1472) {
            self.transport = transport
            self.credentials = credentials
            self.maximumPacketSize = maximumPacketSize
        }
    }

    private struct Connection {
        var loop: EventLoop
        var publisher: RTSPPublisher
        var sender: RTPStreamSender
        /// The publisher's track number of each of our tracks (0 video, 1 audio — or 0 for the only one).
        var tracks: [Int]
    }

    /// The server's URL: `rtsp://[USER:PASSWORD@]HOST[:PORT]/PATH`.
    public let url: String
    /// The options.
    public let options: Options
    /// The URL.
    public var name: String { url }
    /// A live link: its queue drops when the server reads slower than the stream.
    public var isLive: Bool { true }

    private let connection = Mutex<Connection?>(nil)

    /// Creates the destination; it connects when the stream starts.
    /// - Parameters:
    ///   - url: `rtsp://HOST[:PORT]/PATH`.
    ///   - options: transport, credentials and packet size.
    public init(url: String, options: Options = Options()) {
        self.url = url
        self.options = options
    }

    /// Connects and starts recording: ANNOUNCE (RFC 2326 §10.3), SETUP of each track with `mode=record` (§10.4),
    /// RECORD (§10.11).
    /// - Parameter stream: the stream's formats.
    /// - Throws: ``RTPDestinationError``: `rtsp` when the server cannot be reached or refuses a request,
    ///   `sessionDescription` or `packetizer` for a format RTP cannot carry, `transport` for the event loop.
    public func open(_ stream: LiveStreamDescription) async throws(RTPDestinationError) {
        let description: SessionDescription
        do throws(SDPError) {
            description = try SessionDescription.live(video: stream.video, audio: stream.audio, frameRate: stream.frameRate,
                                                      host: "0.0.0.0", family: .ipv4, videoPort: 0, audioPort: 0, controls: true)
        } catch {
            throw .sessionDescription(error)
        }
        let sender: RTPStreamSender
        do throws(RTPPacketizerError) {
            sender = try RTPStreamSender(video: stream.video, audio: stream.audio, maximumPacketSize: options.maximumPacketSize,
                                         wallClockStart: Date())
        } catch {
            throw .packetizer(error)
        }
        let loop: EventLoop
        do throws(TransportError) { loop = try EventLoop() } catch { throw .transport(error) }
        var publisher: RTSPPublisher?
        do throws(RTSPClientError) {
            let connected = try await RTSPPublisher(url: url, credentials: options.credentials, on: loop)
            publisher = connected
            try await connected.announce(sdp: description.text)
            var tracks: [Int] = []
            for (index, media) in description.media.enumerated() {
                tracks.append(try await connected.setup(control: media.attribute("control") ?? "trackID=\(index)",
                                                        transport: options.transport))
            }
            try await connected.record()
            connection.withLock { $0 = Connection(loop: loop, publisher: connected, sender: sender, tracks: tracks) }
        } catch {
            await publisher?.teardown()
            loop.shutdown()
            throw .rtsp(error)
        }
    }

    /// Packetizes a frame and sends its packets (and a sender report once a second); waits while the connection's
    /// buffer is full, so that the destination's queue drops whole frames when the server reads too slowly.
    /// - Parameter media: the frame.
    /// - Throws: ``RTPDestinationError``: `notOpen` before ``open(_:)``, `rtsp` once the connection is lost,
    ///   `packetizer` or `report` for a frame that cannot be sent.
    public func send(_ media: OutgoingMedia) async throws(RTPDestinationError) {
        var packets: [(bytes: [UInt8], track: Int, isControl: Bool)] = []
        let url = self.url
        let publisher = try connection.withLock { (connection: inout Connection?) throws(RTPDestinationError) -> RTSPPublisher in
            // Taken out and put back: the packetizers' buffers are changed in place, never copied.
            guard var open = connection.take() else { throw .notOpen(destination: url) }
            defer { connection = open }
            let tracks = open.tracks
            do {
                try open.sender.send(media, timedOutput: { packet, track, timestamp in
                    guard tracks.indices.contains(track) else { return }
                    packets.append((Array(packet), tracks[track], timestamp == nil))
                })
            } catch {
                throw .sending(error)
            }
            return open.publisher
        }
        do throws(RTSPClientError) {
            for packet in packets { try await publisher.send(packet.bytes, track: packet.track, isControl: packet.isControl) }
        } catch {
            throw .rtsp(error)
        }
    }

    /// Sends each track's last sender report and BYE (RFC 3550 §6.6), then TEARDOWN (RFC 2326 §10.7), and closes the
    /// connection. Over UDP, TEARDOWN waits a quarter of a second after the last datagram, so the receiver reads what
    /// is still on its way before its session ends.
    /// - Throws: ``RTPDestinationError/report(_:)`` when the BYE cannot be made (the connection is closed all the same).
    public func finish() async throws(RTPDestinationError) {
        guard let open = connection.withLock({ connection -> Connection? in
            defer { connection = nil }
            return connection
        }) else { return }
        defer { open.loop.shutdown() }
        var failure: RTCPError?
        do throws(RTCPError) {
            for (track, bytes) in try open.sender.goodbye() where open.tracks.indices.contains(track) {
                try? await open.publisher.send(bytes, track: open.tracks[track], isControl: true)
            }
        } catch {
            failure = error
        }
        if options.transport == .udp {
            // Datagrams sent just now may still wait in the receiver's socket: TEARDOWN ends its session at once (ffmpeg
            // stops reading), so give them a moment to be read first.
            try? await Task.sleep(for: .milliseconds(250))
        }
        await open.publisher.teardown()
        if let failure { throw .report(failure) }
    }
}

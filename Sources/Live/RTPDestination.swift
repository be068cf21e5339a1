import Containers
import Foundation
import MediaCore
import POSIX
import RTP
import Synchronization
import Transport

/// Plain RTP to a host and port, described by an SDP file, as `ffmpeg -f rtp` sends it: video (H.264 RFC 6184,
/// H.265 RFC 7798, payload type 96) to the port, AAC (RFC 3640 `mpeg4-generic`, payload type 97) to the port + 2
/// (or to the port itself without video), each track's RTCP sender reports (RFC 3550 §6.4.1) and its closing BYE
/// (§6.6) to the RTP port + 1 (RFC 3550 §11: RTP on an even port, RTCP on the next). The SDP (RFC 8866) is written
/// when the stream starts, before the first packet: give it to the receiver
/// (`ffmpeg -protocol_whitelist file,udp,rtp -i stream.sdp`).
///
/// Packets go out of one UDP socket without waiting: a packet the socket cannot take at once (its buffer full)
/// waits, with those after it, for the socket to drain, while the destination's queue drops whole frames behind it.
///
/// ```swift
/// pipeline.add(RTPDestination(host: "127.0.0.1", port: 5004, sdpPath: "stream.sdp"))
/// ```
public final class RTPDestination: LiveDestination {
    private struct Connection {
        var loop: EventLoop
        var socket: UDPSocket
        var sender: RTPStreamSender
        /// Where each track's RTP goes (its RTCP goes to the next port).
        var addresses: [SocketAddress]
    }

    /// The receiver's host (an IPv4 or IPv6 address; `localhost` means 127.0.0.1).
    public let host: String
    /// The video's RTP port (even, by RFC 3550 §11); audio is sent to `port + 2` when there is video.
    public let port: UInt16
    /// Where the SDP file is written.
    public let sdpPath: String
    /// The largest RTP packet (the path MTU less the IP and UDP headers).
    public let maximumPacketSize: Int
    /// `rtp://HOST:PORT`.
    public var name: String {
        host.contains(":") ? "rtp://[\(host)]:\(port)" : "rtp://\(host):\(port)"
    }
    /// A live link (nothing adapts to it: RTP without RTCP feedback measures nothing).
    public var isLive: Bool { true }

    private let connection = Mutex<Connection?>(nil)

    /// Creates the destination; the socket is opened and the SDP written when the stream starts.
    /// - Parameters:
    ///   - host: the receiver's address.
    ///   - port: the video's RTP port (audio at `port + 2`, RTCP one above each).
    ///   - sdpPath: the SDP file to write.
    ///   - maximumPacketSize: the largest RTP packet (default 1472: a 1500-byte MTU less IPv4 and UDP).
    public init(host: String, port: UInt16, sdpPath: String, maximumPacketSize: Int = 1472) {
        self.host = host
        self.port = port
        self.sdpPath = sdpPath
        self.maximumPacketSize = maximumPacketSize
    }

    /// The ports a stream's tracks are sent to, in track order: the video's (``port``) and the audio's
    /// (``port`` + 2), or ``port`` alone for a stream of one track.
    /// - Parameter stream: the stream's formats.
    /// - Returns: one RTP port per track; each track's RTCP goes to its port + 1.
    public func ports(for stream: LiveStreamDescription) -> [UInt16] {
        stream.video != nil && stream.audio != nil ? [port, port &+ 2] : [port]
    }

    /// Opens the socket, writes the SDP file and prepares the packetizers.
    /// - Parameter stream: the stream's formats.
    /// - Throws: ``RTPDestinationError``: `address` for a host that is not an address, `sessionDescription` or
    ///   `packetizer` for a format RTP cannot carry, `sessionDescriptionFile` when the SDP cannot be written,
    ///   `transport` when the socket cannot be opened.
    public func open(_ stream: LiveStreamDescription) async throws(RTPDestinationError) {
        let address: SocketAddress
        do throws(SocketAddressError) {
            address = try SocketAddress(host: host == "localhost" ? "127.0.0.1" : host, port: port)
        } catch {
            throw .address(error)
        }
        let ports = ports(for: stream)
        let description: SessionDescription
        do throws(SDPError) {
            description = try SessionDescription.live(video: stream.video, audio: stream.audio, frameRate: stream.frameRate,
                                                      host: address.host, family: address.family, videoPort: Int(ports[0]),
                                                      audioPort: Int(ports[ports.count - 1]), controls: false)
        } catch {
            throw .sessionDescription(error)
        }
        let sender: RTPStreamSender
        do throws(RTPPacketizerError) {
            sender = try RTPStreamSender(video: stream.video, audio: stream.audio, maximumPacketSize: maximumPacketSize,
                                         wallClockStart: Date())
        } catch {
            throw .packetizer(error)
        }
        do throws(ContainerIOError) {
            try AtomicFile.replace(sdpPath, withText: description.text)
        } catch {
            throw .sessionDescriptionFile(error)
        }
        let loop: EventLoop
        let socket: UDPSocket
        do throws(TransportError) { loop = try EventLoop() } catch { throw .transport(error) }
        do throws(TransportError) {
            socket = try UDPSocket(bindingTo: .any(address.family, port: 0), on: loop)
        } catch {
            loop.shutdown()
            throw .transport(error)
        }
        let addresses = ports.map { port -> SocketAddress in
            var destination = address
            destination.port = port
            return destination
        }
        connection.withLock { $0 = Connection(loop: loop, socket: socket, sender: sender, addresses: addresses) }
    }

    /// Packetizes a frame and sends its packets (and a sender report once a second).
    /// - Parameter media: the frame.
    /// - Throws: ``RTPDestinationError``: `notOpen` before ``open(_:)``, `packetizer` or `report` for a frame that
    ///   cannot be sent, `transport` when the socket fails.
    public func send(_ media: OutgoingMedia) async throws(RTPDestinationError) {
        var waiting: [(bytes: [UInt8], to: SocketAddress)] = []
        var failure: TransportError?
        let name = self.name
        let socket = try connection.withLock { (connection: inout Connection?) throws(RTPDestinationError) -> UDPSocket in
            // Taken out and put back: the packetizers' buffers are changed in place, never copied.
            guard var open = connection.take() else { throw .notOpen(destination: name) }
            defer { connection = open }
            let (addresses, socket) = (open.addresses, open.socket)
            do {
                try open.sender.send(media, timedOutput: { packet, track, timestamp in
                    guard failure == nil, addresses.indices.contains(track) else { return }
                    var address = addresses[track]
                    if timestamp == nil { address.port &+= 1 }
                    do throws(TransportError) {
                        if waiting.isEmpty, try socket.trySend(packet, to: address) { return }
                        waiting.append((Array(packet), address))
                    } catch {
                        failure = error
                    }
                })
            } catch {
                throw .sending(error)
            }
            return socket
        }
        if let failure { throw .transport(failure) }
        do throws(TransportError) {
            for packet in waiting { try await socket.send(packet.bytes, to: packet.to) }
        } catch {
            throw .transport(error)
        }
    }

    /// Sends each track's last sender report and BYE (RFC 3550 §6.6) and closes the socket.
    /// - Throws: ``RTPDestinationError/report(_:)`` when the BYE cannot be made.
    public func finish() async throws(RTPDestinationError) {
        guard let open = connection.withLock({ connection -> Connection? in
            defer { connection = nil }
            return connection
        }) else { return }
        defer {
            open.socket.close()
            open.loop.shutdown()
        }
        let goodbyes: [(track: Int, bytes: [UInt8])]
        do throws(RTCPError) { goodbyes = try open.sender.goodbye() } catch { throw .report(error) }
        for (track, bytes) in goodbyes where open.addresses.indices.contains(track) {
            var address = open.addresses[track]
            address.port &+= 1
            try? await open.socket.send(bytes, to: address)
        }
    }
}

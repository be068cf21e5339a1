import Bitstream
import Foundation
import POSIX
import RTP
import Synchronization
import Transport

/// Where `receive` gets its packets: the UDP ports an SDP file names (each media section's port for RTP, the
/// next for RTCP), or an RTSP server (DESCRIBE/SETUP/PLAY). Either way the session description and one stream
/// of packets, the track number being the media section's index.
struct ReceivedPacketSource {
    /// The session description.
    let description: SessionDescription
    /// Every packet, in arrival order.
    let packets: AsyncStream<RTSPMediaPacket>
    /// Ends the session (TEARDOWN, or closes the sockets).
    let stop: @Sendable () async -> Void
    /// Sends an RTCP packet (a receiver report) on a track, where the sender's RTCP address is known: over RTSP,
    /// or for an SDP file the address the track's RTP packets come from with the port after it (RFC 3550 §11).
    let sendRTCP: (@Sendable (_ bytes: [UInt8], _ track: Int) async -> Void)?

    /// Binds the ports of an SDP file's media sections.
    /// - Parameters:
    ///   - path: the SDP file.
    ///   - loop: the event loop.
    /// - Throws: the SDP's or the sockets' errors.
    init(sdpFile path: String, on loop: EventLoop) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        description = try SessionDescription(parsing: text)
        let (stream, continuation) = AsyncStream.makeStream(of: RTSPMediaPacket.self, bufferingPolicy: .bufferingOldest(8192))
        packets = stream
        var sockets: [UDPSocket] = []
        var tasks: [Task<Void, Never>] = []
        let host = description.connection?.address ?? "0.0.0.0"
        let family: SocketAddress.Family = host.contains(":") ? .ipv6 : .ipv4
        let senders = RTPSenderAddresses()
        var controlSockets: [Int: UDPSocket] = [:]
        for (index, media) in description.media.enumerated() where media.port > 0 {
            for (offset, isControl) in [(0, false), (1, true)] {
                guard let port = UInt16(exactly: media.port + offset) else { continue }
                let socket = try UDPSocket(bindingTo: .any(family, port: port), on: loop)
                sockets.append(socket)
                // Without an `a=rtcp` line (RFC 3605) the sender's RTCP port is the one after its RTP port
                // (RFC 3550 §11); receiver reports go there from this track's RTCP port.
                if isControl, media.attribute("rtcp") == nil { controlSockets[index] = socket }
                tasks.append(Task {
                    while let datagram = try? await socket.receive() {
                        if !isControl { senders.record(datagram.sender, track: index) }
                        continuation.yield(RTSPMediaPacket(track: index, isControl: isControl, bytes: ByteView(datagram.bytes)))
                    }
                })
            }
        }
        let reportSockets = controlSockets
        sendRTCP = { bytes, track in
            guard let socket = reportSockets[track], var destination = senders.address(of: track),
                  destination.port < UInt16.max else { return }
            destination.port += 1
            try? await socket.send(bytes, to: destination)
        }
        let owned = sockets, running = tasks
        stop = {
            for task in running { task.cancel() }
            for socket in owned { socket.close() }
            continuation.finish()
        }
    }

    /// Plays an RTSP URL: DESCRIBE, SETUP of every media section, PLAY.
    /// - Parameters:
    ///   - url: `rtsp://[user:password@]host[:port]/path`.
    ///   - transport: UDP or interleaved TCP.
    ///   - loop: the event loop.
    /// - Throws: ``RTSPClientError``, ``SDPError``.
    init(rtspURL url: String, transport: RTSPLowerTransport, on loop: EventLoop) async throws {
        let client = try await RTSPClient(url: url, on: loop)
        let answer = try await client.describe()
        description = try SessionDescription(parsing: answer.sdp)
        for media in description.media {
            _ = try await client.setup(control: media.control ?? "*", transport: transport)
        }
        try await client.play()
        packets = client.packets
        stop = { await client.teardown() }
        sendRTCP = { bytes, track in try? await client.send(rtcp: bytes, track: track) }
    }
}

/// The address each track's RTP packets last came from (where `receive` of an SDP file sends its reports).
private final class RTPSenderAddresses: Sendable {
    private let addresses = Mutex<[Int: SocketAddress]>([:])

    /// Records the source of an RTP packet of a track.
    func record(_ address: SocketAddress, track: Int) {
        addresses.withLock { $0[track] = address }
    }

    /// The latest RTP source of a track, if any packet came.
    func address(of track: Int) -> SocketAddress? {
        addresses.withLock { $0[track] }
    }
}

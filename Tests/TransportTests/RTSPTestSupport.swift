import Bitstream
import Foundation
import POSIX
import Synchronization
import TestSupport
import Transport

/// An H.264 RTP capture made by ffmpeg (x264 → `-f rtp`) received on our UDP socket, and the framemd5 of the
/// same Annex B stream decoded directly — the frames any client of our server must reproduce.
struct H264Capture: Sendable {
    /// Every RTP packet, in arrival order.
    var packets: [[UInt8]]
    /// The framemd5 hashes of each decoded frame of the reference stream.
    var referenceHashes: Set<String>
    /// The RTP timestamp span of one pass (to shift the next pass by).
    var duration: UInt32

    /// The SDP, written by hand for this capture (in-band SPS/PPS, packetization-mode 1).
    static let sdp = """
        v=0
        o=- 0 0 IN IP4 127.0.0.1
        s=StreamKit test
        c=IN IP4 0.0.0.0
        t=0 0
        m=video 0 RTP/AVP 96
        a=rtpmap:96 H264/90000
        a=fmtp:96 packetization-mode=1
        """

    /// Makes the capture in `directory` (ffmpeg on UDP port `port`).
    static func make(in directory: URL, port: UInt16, loop: EventLoop) async throws -> H264Capture {
        let reference = directory.appendingPathComponent("ref.h264").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                          "testsrc=size=320x240:rate=25", "-frames:v", "50", "-c:v", "libx264", "-threads", "1",
                                          "-g", "10", "-bf", "0", "-x264-params", "repeat-headers=1", "-pix_fmt", "yuv420p",
                                          "-f", "h264", reference])
        let hashes = try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", reference, "-f", "framemd5", "-"])
        let referenceHashes = Set(frameHashes(hashes.text))
        let socket = try UDPSocket(bindingTo: .loopback(.ipv4, port: port), on: loop)
        defer { socket.close() }
        try socket.socket.setOption(.receiveBufferSize, to: 8 << 20)
        let collected = Mutex<[[UInt8]]>([])
        let receiving = Task {
            while let datagram = try? await socket.receive() { collected.withLock { $0.append(datagram.bytes) } }
        }
        let sender = try PeerProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-re", "-i", reference, "-c", "copy",
                                                "-f", "rtp", "-pkt_size", "1200", "rtp://127.0.0.1:\(port)"], logsIn: directory)
        await sender.exitStatus(within: 30)
        try await Task.sleep(for: .milliseconds(200))
        receiving.cancel()
        _ = await receiving.result
        let packets = collected.withLock { $0 }
        let first = timestamp(packets.first ?? []), last = timestamp(packets.last ?? [])
        return H264Capture(packets: packets, referenceHashes: referenceHashes, duration: last &- first &+ 3600)
    }

    /// The hash column of framemd5 output (stream 0 lines).
    static func frameHashes(_ text: String) -> [String] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return fields.count >= 6 && fields[0] == "0" ? fields[5] : nil
        }
    }

    static func timestamp(_ packet: [UInt8]) -> UInt32 {
        guard packet.count >= 8 else { return 0 }
        return UInt32(packet[4]) << 24 | UInt32(packet[5]) << 16 | UInt32(packet[6]) << 8 | UInt32(packet[7])
    }
}

/// Replays a capture into a stream in real time (by RTP timestamp), pass after pass, with sequence numbers and
/// timestamps continued across passes, until cancelled.
func replay(_ capture: H264Capture, into stream: RTSPLiveStream) -> Task<Void, Never> {
    Task.detached {
        var sequence: UInt16 = 1000
        var pass: UInt32 = 0
        guard let firstPacket = capture.packets.first else { return }
        let base = H264Capture.timestamp(firstPacket)
        while !Task.isCancelled {
            let start = ContinuousClock.now
            for var packet in capture.packets where packet.count >= 12 {
                if Task.isCancelled { return }
                let offset = H264Capture.timestamp(packet) &- base
                let due = start + .microseconds(Int64(offset) * 1_000_000 / 90_000)
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
                let timestamp = H264Capture.timestamp(packet) &+ pass &* capture.duration
                packet[2] = UInt8(sequence >> 8)
                packet[3] = UInt8(sequence & 0xFF)
                packet[4] = UInt8(timestamp >> 24)
                packet[5] = UInt8(timestamp >> 16 & 0xFF)
                packet[6] = UInt8(timestamp >> 8 & 0xFF)
                packet[7] = UInt8(timestamp & 0xFF)
                sequence &+= 1
                stream.publishRTP(packet, track: 0, timestamp: timestamp)
            }
            pass += 1
        }
    }
}

/// A minimal RTSP client on our own sockets, for many-client, stalled-client and hostile-client tests.
final class RawRTSPClient: @unchecked Sendable {
    let connection: TCPConnection
    private var parser = RTSPStreamParser()
    private var pending: [RTSPStreamItem] = []
    private var cseq = 0
    var session: String?
    /// Interleaved RTP frames read so far, and their sequence numbers.
    private(set) var sequenceNumbers: [UInt16] = []

    init(port: UInt16, loop: EventLoop, family: SocketAddress.Family = .ipv4) async throws {
        connection = try await TCPConnection.connect(to: .loopback(family, port: port), on: loop)
        host = family == .ipv4 ? "127.0.0.1" : "[::1]"
    }

    /// The host as a URL writes it.
    let host: String

    /// Sends a request and reads until its response (counting interleaved frames on the way).
    func request(_ method: RTSPMethod, _ uri: String, _ headers: RTSPHeaders = RTSPHeaders()) async throws -> RTSPResponse {
        cseq += 1
        var request = RTSPRequest(method: method, uri: uri, cseq: cseq, headers: headers)
        if let session { request.headers.set("Session", session) }
        try await connection.write(request.serialized())
        return try await nextResponse()
    }

    func nextResponse() async throws -> RTSPResponse {
        while true {
            while let item = try parser.next() {
                switch item {
                case let .response(response):
                    if let value = response.headers["Session"] { session = try RTSPSessionHeader(parsing: value).identifier }
                    return response
                case let .interleaved(frame): count(frame)
                case .request: continue
                }
            }
            let bytes = try await connection.read()
            if bytes.isEmpty { throw TransportError.closed }
            parser.append(bytes)
        }
    }

    /// DESCRIBE, SETUP over TCP interleaved, PLAY.
    func play(port: UInt16, path: String = "live") async throws {
        let base = "rtsp://\(host):\(port)/\(path)"
        _ = try await request(.describe, base, ["Accept": "application/sdp"])
        let setup = try await request(.setup, base + "/trackID=0", ["Transport": "RTP/AVP/TCP;unicast;interleaved=0-1"])
        guard setup.status == .ok else { throw TransportError.closed }
        let play = try await request(.play, base, ["Range": "npt=0.000-"])
        guard play.status == .ok else { throw TransportError.closed }
    }

    /// Reads interleaved frames until `count` RTP packets arrived or the connection ends.
    func readRTP(until count: Int) async throws {
        while sequenceNumbers.count < count {
            while let item = try parser.next() {
                if case let .interleaved(frame) = item { self.count(frame) }
            }
            if sequenceNumbers.count >= count { return }
            let bytes = try await connection.read()
            if bytes.isEmpty { return }
            parser.append(bytes)
        }
    }

    private func count(_ frame: RTSPInterleavedFrame) {
        guard frame.channel == 0, frame.payload.count >= 4 else { return }
        let payload = Array(frame.payload)
        sequenceNumbers.append(UInt16(payload[2]) << 8 | UInt16(payload[3]))
    }

    /// Whether every sequence number follows the one before.
    var isContiguous: Bool {
        zip(sequenceNumbers, sequenceNumbers.dropFirst()).allSatisfy { $0 &+ 1 == $1 }
    }

    func close() { connection.close() }
}

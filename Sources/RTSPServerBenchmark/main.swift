// streamkit-rtsp-benchmark-server: our RTSP server replaying an H.264 RTP capture in real time, for
// scripts/benchmark-rtsp-server.sh, which starts N clients and reads this process's CPU time from /proc.
//
//   streamkit-rtsp-benchmark-server FILE.h264 --port 20580 --rtp-port 20660 --capture-port 20670
//
// The Annex B file is sent by ffmpeg (-c copy -f rtp) to --capture-port and captured; the packets are then
// published in a loop (sequence numbers and timestamps continued) at rtsp://127.0.0.1:PORT/live. Prints
// "ready" once serving; runs until killed.
import Foundation
import POSIX
import Synchronization
import Transport

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, default value: UInt16) -> UInt16 {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let parsed = UInt16(arguments[index + 1]) else {
        return value
    }
    return parsed
}
guard let file = arguments.first, FileManager.default.fileExists(atPath: file) else {
    FileHandle.standardError.write(Data("usage: streamkit-rtsp-benchmark-server FILE.h264 [--port N] [--rtp-port N] [--capture-port N]\n".utf8))
    exit(2)
}
let port = option("--port", default: 20580)
let loop = try EventLoop()

// 1. Capture the file as RTP.
let capture = try UDPSocket(bindingTo: .loopback(.ipv4, port: option("--capture-port", default: 20670)), on: loop)
try capture.socket.setOption(.receiveBufferSize, to: 8 << 20)
let packets = Mutex<[[UInt8]]>([])
let receiving = Task {
    while let datagram = try? await capture.receive() { packets.withLock { $0.append(datagram.bytes) } }
}
let sender = Process()
sender.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
sender.arguments = ["-hide_banner", "-loglevel", "error", "-re", "-i", file, "-c", "copy", "-f", "rtp", "-pkt_size", "1200",
                    "rtp://127.0.0.1:\(capture.localAddress.port)"]
try sender.run()
sender.waitUntilExit()
try await Task.sleep(for: .milliseconds(300))
capture.close()
_ = await receiving.result
let captured = packets.withLock { $0 }
guard captured.count > 10 else { FileHandle.standardError.write(Data("no packets captured\n".utf8)); exit(1) }
func timestamp(_ packet: [UInt8]) -> UInt32 {
    UInt32(packet[4]) << 24 | UInt32(packet[5]) << 16 | UInt32(packet[6]) << 8 | UInt32(packet[7])
}
let base = timestamp(captured[0])
let span = timestamp(captured[captured.count - 1]) &- base &+ 3000

// 2. Serve it.
let configuration = RTSPServerConfiguration(address: .loopback(.ipv4, port: port), rtpPort: option("--rtp-port", default: 20660),
                                            maximumConnections: 128, maximumSessions: 128)
let server = try RTSPServer(configuration: configuration, on: loop)
let stream = server.addStream(path: "live", sdp: """
    v=0
    o=- 0 0 IN IP4 127.0.0.1
    s=StreamKit benchmark
    c=IN IP4 0.0.0.0
    t=0 0
    m=video 0 RTP/AVP 96
    a=rtpmap:96 H264/90000
    a=fmtp:96 packetization-mode=1
    """)
server.start()
FileHandle.standardOutput.write(Data("ready \(captured.count) packets\n".utf8))
var sequence: UInt16 = 0
var pass: UInt32 = 0
while true {
    let start = ContinuousClock.now
    for var packet in captured where packet.count >= 12 {
        let offset = timestamp(packet) &- base
        let due = start + .microseconds(Int64(offset) * 1_000_000 / 90_000)
        if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
        let stamp = timestamp(packet) &+ pass &* span
        packet[2] = UInt8(sequence >> 8)
        packet[3] = UInt8(sequence & 0xFF)
        packet[4] = UInt8(stamp >> 24)
        packet[5] = UInt8(stamp >> 16 & 0xFF)
        packet[6] = UInt8(stamp >> 8 & 0xFF)
        packet[7] = UInt8(stamp & 0xFF)
        sequence &+= 1
        stream.publishRTP(packet, track: 0, timestamp: stamp)
    }
    pass += 1
}

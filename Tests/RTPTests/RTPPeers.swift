import Bitstream
import Foundation
import POSIX
import RTP
import Testing
import TestSupport

/// Real peers and captures for the RTP tests: ffmpeg as an RTP sender and receiver on loopback UDP, pcap files.
enum RTPPeers {
    /// Runs `ffmpeg arguments` while receiving every datagram sent to 127.0.0.1:`port`, until ffmpeg has exited
    /// and nothing arrived for half a second (60 s at most).
    static func receive(port: UInt16, whileRunning arguments: [String]) throws -> [[UInt8]] {
        let socket = try Socket(.udp, family: .ipv4)
        defer { try? socket.close() }
        try socket.setOption(.receiveBufferSize, to: 8 << 20)
        try socket.bind(to: .loopback(.ipv4, port: port))
        let process = try start("ffmpeg", arguments)
        defer { if process.isRunning { process.terminate() } ; process.waitUntilExit() }
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(60)
        var quietSince: Date?
        while Date() < deadline {
            let events = try socket.descriptor.poll(for: .readable, timeout: .milliseconds(100))
            if events.contains(.readable) {
                let count = try buffer.withUnsafeMutableBytes { try socket.receiveDatagram(into: $0)?.count } ?? 0
                datagrams.append(Array(buffer.prefix(count)))
                quietSince = nil
                continue
            }
            if process.isRunning { continue }
            if let since = quietSince {
                if Date().timeIntervalSince(since) > 0.5 { break }
            } else {
                quietSince = Date()
            }
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("ffmpeg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return datagrams
    }

    /// ``receive(port:whileRunning:)`` on a thread of its own (``OffPool``), so that the wait holds no thread of the
    /// cooperative pool.
    static func receive(port: UInt16, whileRunning arguments: [String]) async throws -> [[UInt8]] {
        try await OffPool.run { try receive(port: port, whileRunning: arguments) }
    }

    /// ``send(_:to:)`` on a thread of its own (``OffPool``).
    static func send(_ datagrams: [[UInt8]], to port: UInt16) async throws {
        try await OffPool.run { try send(datagrams, to: port) }
    }

    /// Waits, without holding a thread, until `process` has exited, at most `seconds`.
    static func waitForExit(_ process: Process, seconds: Double) async {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
    }

    /// Starts a tool with its output discarded.
    static func start(_ name: String, _ arguments: [String]) throws -> Process {
        guard let path = ExternalTool.path(of: name) else { throw TestFailure("\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-hide_banner", "-loglevel", "error"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Sends datagrams to 127.0.0.1:`port`, a little apart so a receiver's socket never overflows.
    static func send(_ datagrams: [[UInt8]], to port: UInt16) throws {
        let socket = try Socket(.udp, family: .ipv4)
        defer { try? socket.close() }
        let address = SocketAddress.loopback(.ipv4, port: port)
        for (index, datagram) in datagrams.enumerated() {
            _ = try datagram.withUnsafeBytes { try socket.send($0, to: address) }
            if index % 2 == 1 { usleep(1000) }
        }
    }

    /// The UDP payloads of an Ethernet/IPv4 pcap file (classic format, either byte order).
    static func udpPayloads(ofPcap bytes: [UInt8]) throws -> [[UInt8]] {
        let file = ByteView(bytes)
        guard let magic = file.getInteger(at: 0, endianness: .little, as: UInt32.self) else { throw TestFailure("no pcap header") }
        let order: ByteView.Endianness = magic == 0xA1B2_C3D4 ? .little : .big
        guard magic == 0xA1B2_C3D4 || magic == 0xD4C3_B2A1,
              file.getInteger(at: 20, endianness: order, as: UInt32.self) == 1 else { throw TestFailure("not an Ethernet pcap") }
        var offset = 24
        var payloads: [[UInt8]] = []
        while let length = file.getInteger(at: offset + 8, endianness: order, as: UInt32.self),
              let frame = file.getView(at: offset + 16, byteCount: Int(length)) {
            offset += 16 + Int(length)
            var ip = 14
            if frame.getInteger(at: 12, as: UInt16.self) == 0x8100 { ip += 4 }
            guard frame.getInteger(at: ip - 2, as: UInt16.self) == 0x0800, let versionIHL = frame.getByte(at: ip),
                  frame.getByte(at: ip + 9) == 17 else { continue }
            let udp = ip + Int(versionIHL & 0x0F) * 4
            guard let udpLength = frame.getInteger(at: udp + 4, as: UInt16.self),
                  let payload = frame.getView(at: udp + 8, byteCount: Int(udpLength) - 8) else { continue }
            payloads.append(Array(payload))
        }
        return payloads
    }

    /// The NAL units of an Annex B stream, as arrays (the normal form the comparisons use).
    static func nalUnits(ofAnnexB bytes: [UInt8]) -> [[UInt8]] {
        AnnexB.nalUnits(in: ByteView(bytes)).map { Array($0) }
    }

    /// NAL units with exact repeats inside one access unit's prefix removed: ffmpeg's `hevc_mp4toannexb` puts the
    /// extradata's VPS/SPS/PPS/SEI in front of every IRAP picture even when the picture carries the same units
    /// in-band (x265 `repeat-headers`), and the RTP muxer sends them once. `isSlice` tells which units end a prefix.
    static func withoutRepeatedPrefixUnits(_ units: [[UInt8]], isSlice: ([UInt8]) -> Bool) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var prefix: [[UInt8]] = []
        for unit in units {
            if isSlice(unit) {
                prefix = []
                result.append(unit)
            } else if !prefix.contains(unit) {
                prefix.append(unit)
                result.append(unit)
            }
        }
        return result
    }

    /// Raw AAC frames out of an ADTS stream.
    static func rawFrames(ofADTS bytes: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var offset = 0
        while offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF0 == 0xF0 {
            let length = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            let header = bytes[offset + 1] & 0x01 == 0 ? 9 : 7
            guard length >= header, offset + length <= bytes.count else { break }
            frames.append(Array(bytes[(offset + header)..<(offset + length)]))
            offset += length
        }
        return frames
    }
}

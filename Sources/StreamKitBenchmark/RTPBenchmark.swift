// streamkit-benchmark rtp: H.264 packetize + depacketize (RFC 6184, 1200-byte packets) against a plain memcpy.
import Bitstream
import Foundation
import RTP

/// Times, in the same run, packetizing an H.264 stream into RTP packets (written into one arena, as a sender
/// writes into its socket buffers), depacketizing those packets back into access units, and a memcpy of the
/// same bytes; prints MB/s, packets/s and the ratios.
/// - Parameters:
///   - file: an Annex B stream.
///   - path: its path (for the report).
///   - megabytes: the stream is repeated up to this size.
///   - rounds: timings per measurement (the best is kept).
func benchmarkRTP(file: [UInt8], path: String, megabytes: Int, rounds: Int) throws {
    // Access units: each VCL NAL unit closes one, with the non-VCL units before it.
    let units = AnnexB.nalUnits(in: ByteView(file))
    var accessUnits: [[ByteView]] = []
    var pending: [ByteView] = []
    for unit in units where !unit.isEmpty {
        pending.append(unit)
        if (1...5).contains(unit[0] & 0x1F) { accessUnits.append(pending); pending = [] }
    }
    guard !accessUnits.isEmpty else { fail("no access units in \(path)") }
    let unitBytes = accessUnits.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    let repeats = max(1, (megabytes << 20) / max(unitBytes, 1))
    let payloadBytes = unitBytes * repeats

    let packetSize = 1200
    // Packetize once to size the arena: packets are stored back to back with their lengths.
    var packetizer = try H264Packetizer(maximumPacketSize: packetSize, state: RTPSenderState(payloadType: 96, ssrc: 1,
                                                                                            sequenceNumber: 0, timestampOffset: 0))
    var packetCount = 0
    var arenaSize = 0
    for unit in accessUnits {
        packetizer.packetize(nalUnits: unit, timestamp: 0) { packet in packetCount += 1; arenaSize += packet.count }
    }
    packetCount *= repeats
    arenaSize *= repeats
    let arena = UnsafeMutableRawBufferPointer.allocate(byteCount: arenaSize, alignment: 16)
    defer { arena.deallocate() }
    var offsets = [Int](repeating: 0, count: packetCount + 1)

    let copySource = UnsafeMutableRawBufferPointer.allocate(byteCount: payloadBytes, alignment: 16)
    let copyDestination = UnsafeMutableRawBufferPointer.allocate(byteCount: payloadBytes, alignment: 16)
    defer { copySource.deallocate(); copyDestination.deallocate() }
    copySource.initializeMemory(as: UInt8.self, repeating: 7)
    let copyTime = best(rounds, clock: threadCPUTime) {
        memcpy(copyDestination.baseAddress!, copySource.baseAddress!, payloadBytes)
        sink &+= Int(copyDestination[payloadBytes / 2])
    }

    let packetizeTime = best(rounds, clock: threadCPUTime) {
        var index = 0
        var position = 0
        var timestamp: UInt32 = 0
        for _ in 0..<repeats {
            for unit in accessUnits {
                packetizer.packetize(nalUnits: unit, timestamp: timestamp) { packet in
                    (arena.baseAddress! + position).copyMemory(from: packet.baseAddress!, byteCount: packet.count)
                    position += packet.count
                    index += 1
                    offsets[index] = position
                }
                timestamp &+= 3000
            }
        }
        sink &+= index
    }

    /// The arena's owner for the views the depacketizer keeps (the arena outlives every view here).
    final class Owner: Sendable {}
    let owner = Owner()
    var frames = 0
    var nalUnitCount = 0
    let depacketizeTime = best(rounds, clock: threadCPUTime) {
        var depacketizer = H264Depacketizer(withholdsUntilKeyFrame: false)
        for index in 0..<packetCount {
            let bytes = UnsafeRawBufferPointer(rebasing: arena[offsets[index]..<offsets[index + 1]])
            guard let packet = try? RTPPacket(parsing: ByteView(unsafeBytes: bytes, owner: owner)) else { continue }
            _ = try? depacketizer.depacketize(packet) { event in
                if case .frame(let unit) = event { frames += 1; nalUnitCount += unit.nalUnits.count }
            }
        }
        depacketizer.flush { _ in frames += 1 }
    }
    sink &+= frames &+ nalUnitCount
    let rate = { (seconds: Double) in Double(payloadBytes) / seconds / 1e6 }
    print(String(format: "input: %.1f MB of NAL units (%@ repeated %d times), %d packets of at most %d bytes",
                 Double(payloadBytes) / 1e6, path, repeats, packetCount, packetSize))
    print(String(format: "memcpy:       %8.2f ms  %8.0f MB/s", copyTime * 1e3, rate(copyTime)))
    print(String(format: "packetize:    %8.2f ms  %8.0f MB/s  %6.2f M packets/s", packetizeTime * 1e3, rate(packetizeTime),
                 Double(packetCount) / packetizeTime / 1e6))
    print(String(format: "depacketize:  %8.2f ms  %8.0f MB/s  %6.2f M packets/s", depacketizeTime * 1e3,
                 rate(depacketizeTime), Double(packetCount) / depacketizeTime / 1e6))
    print(String(format: "ratio packetize / memcpy: %.2fx, depacketize / memcpy: %.2fx, both / memcpy: %.2fx",
                 packetizeTime / copyTime, depacketizeTime / copyTime, (packetizeTime + depacketizeTime) / copyTime))
}

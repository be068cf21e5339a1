import Foundation

/// Writes UDP datagrams on 127.0.0.1 into a pcap file (link type RAW: IPv4 headers, no Ethernet), so that
/// tshark can dissect what we write and analyse streams whose arrival times the test chooses.
enum PacketCapture {
    static func write(_ datagrams: [(seconds: Double, payload: [UInt8])], sourcePort: UInt16, destinationPort: UInt16, to url: URL) throws {
        var file: [UInt8] = []
        func le32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { file += $0 } }
        func le16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { file += $0 } }
        le32(0xA1B2_C3D4); le16(2); le16(4); le32(0); le32(0); le32(65_535); le32(101)
        for (index, datagram) in datagrams.enumerated() {
            var packet: [UInt8] = []
            let total = 20 + 8 + datagram.payload.count
            packet += [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF), 0x40, 0, 64, 17, 0, 0,
                       127, 0, 0, 1, 127, 0, 0, 1]
            var sum: UInt32 = 0
            for offset in stride(from: 0, to: 20, by: 2) { sum += UInt32(packet[offset]) << 8 | UInt32(packet[offset + 1]) }
            while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
            let checksum = ~UInt16(sum)
            packet[10] = UInt8(checksum >> 8); packet[11] = UInt8(checksum & 0xFF)
            let udpLength = 8 + datagram.payload.count
            packet += [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF),
                       UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0]
            packet += datagram.payload
            let whole = datagram.seconds.rounded(.down)
            le32(UInt32(whole)); le32(UInt32(((datagram.seconds - whole) * 1_000_000).rounded()))
            le32(UInt32(packet.count)); le32(UInt32(packet.count))
            file += packet
        }
        try Data(file).write(to: url)
    }
}

import Bitstream
import RTP
import Testing

@Suite struct RTPPacketTests {
    /// A packet with two CSRCs, an extension and 3 bytes of padding, written by hand from RFC 3550 §5.1.
    static let handWritten: [UInt8] = [
        0xB2, 0xE0, 0x12, 0x34, 0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03, 0x04,  // V=2 P X CC=2, M PT=96
        0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x0B,  // CSRCs 10, 11
        0xBE, 0xDE, 0x00, 0x01, 0x11, 0x22, 0x33, 0x44,  // extension, one word
        0x65, 0x88, 0x84,  // payload
        0x00, 0x00, 0x03,  // padding
    ]

    @Test func parsesEveryField() throws {
        let packet = try RTPPacket(parsing: ByteView(Self.handWritten))
        #expect(packet.marker)
        #expect(packet.payloadType == 96)
        #expect(packet.sequenceNumber == 0x1234)
        #expect(packet.timestamp == 0xDEAD_BEEF)
        #expect(packet.ssrc == 0x0102_0304)
        #expect(packet.csrcCount == 2 && packet.csrc(at: 0) == 10 && packet.csrc(at: 1) == 11 && packet.csrc(at: 2) == nil)
        #expect(packet.headerExtension?.profile == 0xBEDE)
        #expect(Array(packet.headerExtension?.data ?? ByteView()) == [0x11, 0x22, 0x33, 0x44])
        #expect(Array(packet.payload) == [0x65, 0x88, 0x84])
        #expect(packet.paddingCount == 3)
        #expect(packet.serialized() == Self.handWritten)
    }

    @Test func payloadIsAViewNotACopy() throws {
        let datagram = ByteView(Self.handWritten)
        let packet = try RTPPacket(parsing: datagram)
        #expect(packet.payload.isSameMemory(as: datagram.getView(at: 28, byteCount: 3)!))
    }

    @Test func writesIntoACallersBufferAndRefusesASmallOne() throws {
        let packet = RTPPacket(marker: false, payloadType: 97, sequenceNumber: 65535, timestamp: 1, ssrc: 2,
                               payload: ByteView([1, 2, 3]))
        var buffer = [UInt8](repeating: 0, count: 15)
        let written = try buffer.withUnsafeMutableBytes { try packet.write(into: $0) }
        #expect(written == 15)
        #expect(buffer == [0x80, 97, 0xFF, 0xFF, 0, 0, 0, 1, 0, 0, 0, 2, 1, 2, 3])
        var small = [UInt8](repeating: 0, count: 14)
        #expect(throws: RTPError.bufferTooSmall(needed: 15, available: 14)) {
            try small.withUnsafeMutableBytes { try packet.write(into: $0) }
        }
    }

    @Test(arguments: [
        ([], RTPError.empty),
        ([0x80, 0x60, 0, 1], .truncatedHeader(count: 4)),
        ([0x40, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], .unsupportedVersion(1)),
        ([0x83, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], .csrcListPastEnd(csrcCount: 3, packetSize: 16)),
        ([0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xBE, 0xDE], .extensionPastEnd(byteOffset: 12, declaredSize: 4, packetSize: 14)),
        ([0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xBE, 0xDE, 0, 2, 1, 2, 3, 4],
         .extensionPastEnd(byteOffset: 12, declaredSize: 12, packetSize: 20)),
        ([0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 9], .invalidPadding(paddingCount: 9, available: 2)),
        ([0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], .invalidPadding(paddingCount: 0, available: 2)),
    ] as [([UInt8], RTPError)])
    func rejectsMalformedPackets(bytes: [UInt8], error: RTPError) {
        #expect(throws: error) { try RTPPacket(parsing: ByteView(bytes)) }
    }

    @Test func paddingMayFillEverythingAfterTheHeader() throws {
        let packet = try RTPPacket(parsing: ByteView([0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]))
        #expect(packet.payload.isEmpty && packet.paddingCount == 2)
    }
}

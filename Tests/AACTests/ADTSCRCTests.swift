import AAC
import Foundation
import TestSupport
import Testing

// No tool on this machine writes CRC-protected ADTS (FFmpeg's ADTS muxer has no CRC option, fdkaac and
// faac are not packaged here), so the expected CRC values below come from an independent CRC
// implementation: Python's `crccheck` package, class `Crc16Cms` (width 16, poly 0x8005, init 0xFFFF,
// no reflection, no final XOR), fed with the bytes/bits the comments describe.

/// The raw data blocks (payloads) of sample.adts, from the real file.
private func samplePayloads() throws -> [ArraySlice<UInt8>] {
    ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample)).frames.map(\.payload)
}

@Suite("ADTS CRC")
struct ADTSCRCTests {
    @Test("CRC-16 check value: \"123456789\" → 0xAEE7 (CRC-16/CMS parameters = ADTS crc_check)")
    func checkValue() {
        // 0xAEE7 is the catalogue check value of CRC-16/CMS (RevEng CRC catalogue), also what
        // crccheck.Crc16Cms.calc(b"123456789") returns.
        #expect(ADTSCRC.checksum(of: Array("123456789".utf8)) == 0xAEE7)
        var bitwise = ADTSCRC()
        for byte in Array("123456789".utf8) { bitwise.update(bits: UInt64(byte), count: 8) }
        #expect(bitwise.value == 0xAEE7)
        var fromBits = ADTSCRC()
        fromBits.update(bitsOf: Array("0123456789".utf8), bitOffset: 8, bitCount: 72)
        #expect(fromBits.value == 0xAEE7)
    }

    /// Blocks 4…7 of sample.adts (6, 171, 202 and 210 bytes) in one protected frame: positions 8, 181, 385,
    /// aac_frame_length 612.
    private func multiBlockFrame(headerCRC: UInt16) throws -> [UInt8] {
        let payloads = try samplePayloads()
        let blocks = Array(payloads[4..<8])
        var positions: [UInt16] = []
        var position = 0
        for block in blocks.dropLast() {
            position += block.count + 2
            positions.append(UInt16(position))
        }
        let frameLength = 7 + 2 * 3 + 2 + blocks.reduce(0) { $0 + $1.count + 2 }
        let header = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC, samplingFrequencyIndex: .hz44100,
                                    channelConfiguration: .mono, frameLength: frameLength,
                                    numberOfRawDataBlocksInFrame: 3, rawDataBlockPositions: positions, crcCheck: headerCRC)
        var bytes = header.serialized()
        for block in blocks { bytes += block + [0x00, 0x00] } // per-block CRCs are not computed here
        return bytes
    }

    @Test("multi-block frame: header CRC over the header and raw_data_block_position[] (crccheck: 0xFD8B)", .requiresMedia)
    func multiBlockHeaderCRC() throws {
        // crccheck.Crc16Cms over fff050404c9fff 000800b50181 (header + positions) = 0xFD8B.
        let bytes = try multiBlockFrame(headerCRC: 0xFD8B)
        #expect(Array(bytes.prefix(13)) == [0xFF, 0xF0, 0x50, 0x40, 0x4C, 0x9F, 0xFF, 0x00, 0x08, 0x00, 0xB5, 0x01, 0x81])
        let header = try ADTSHeader.parse(bytes)
        #expect(header.crcAfterHeader().value == 0xFD8B)
        #expect(try header.verifyHeaderCRC())
        #expect(header.rawDataBlockPositions == [8, 181, 385])
        #expect(header.headerLength == 15)
        #expect(header.serialized() == Array(bytes.prefix(15)))

        let result = ADTSFrameScanner.scan(bytes)
        let frame = try #require(result.frames.first)
        #expect(result.frames.count == 1)
        let payloads = try samplePayloads()
        #expect(frame.rawDataBlocks == Array(payloads[4..<8]))
        #expect(frame.rawDataBlockCRCs == [0, 0, 0, 0])
        try frame.verifyCRC()
    }

    @Test("multi-block frame with a wrong header CRC: typed crcMismatch; the scanner reports lost sync", .requiresMedia)
    func multiBlockMismatch() throws {
        let bytes = try multiBlockFrame(headerCRC: 0xFD8A)
        let header = try ADTSHeader.parse(bytes)
        do {
            try header.verifyHeaderCRC()
            Issue.record("expected a CRC mismatch")
        } catch {
            #expect(error.reason == .crcMismatch(stored: 0xFD8A, computed: 0xFD8B))
            #expect(error.field == "crc_check")
            #expect(error.byteOffset == 13)
        }
        let result = ADTSFrameScanner.scan(bytes)
        #expect(result.frames.isEmpty)
        guard case let .lostSync(firstError)? = result.skipped.first?.reason else {
            Issue.record("expected lost sync")
            return
        }
        #expect(firstError.reason == .crcMismatch(stored: 0xFD8A, computed: 0xFD8B))
    }

    @Test("single-block frame: header + first 192 bits of the SCE after id_syn_ele (crccheck: 0xE0CE), zero padding (0xFC62)", .requiresMedia)
    func singleBlockRegions() throws {
        let payload = try samplePayloads()[10] // 223 bytes, starts with a single_channel_element (id_syn_ele 0)
        let header = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC, samplingFrequencyIndex: .hz44100,
                                    channelConfiguration: .mono, frameLength: payload.count + 9, crcCheck: 0xE0CE)
        // crccheck.Crc16Cms over fff050401d1ffc + payload bits 3..<195 = 0xE0CE.
        #expect(Array(header.serialized().prefix(7)) == [0xFF, 0xF0, 0x50, 0x40, 0x1D, 0x1F, 0xFC])
        let frame = try ADTSFrame.parse(ArraySlice(header.serialized() + payload))
        let sce = ADTSCRC.Region(bitOffset: 3, bitCount: payload.count * 8 - 3, protectedBitCount: 192)
        #expect(frame.computedCRC(protectedRegions: [sce]) == 0xE0CE)
        try frame.verifyCRC(protectedRegions: [sce])

        // An element of 100 bits is fed as 100 bits and 92 zero bits: crccheck gives 0xFC62.
        let short = ADTSCRC.Region(bitOffset: 3, bitCount: 100, protectedBitCount: 192)
        #expect(frame.computedCRC(protectedRegions: [short]) == 0xFC62)

        // A flipped bit inside the region is caught; one past the 192 protected bits is not.
        var damaged = header.serialized() + payload
        damaged[9 + 10] ^= 0x10
        let damagedFrame = try ADTSFrame.parse(ArraySlice(damaged))
        #expect(throws: ADTSError.self) { try damagedFrame.verifyCRC(protectedRegions: [sce]) }
        var outside = header.serialized() + payload
        outside[9 + 100] ^= 0x10
        try ADTSFrame.parse(ArraySlice(outside)).verifyCRC(protectedRegions: [sce])
    }
}

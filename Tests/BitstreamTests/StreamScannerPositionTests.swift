import Testing
import TestSupport
@testable import Bitstream

/// The positions the chunked Annex B scanner hands out with each NAL unit: the offset of its header
/// and of its start code (3 or 4 bytes), whatever the chunking; the unit in progress; dropping it.
@Suite struct StreamScannerPositionTests {
    /// Every unit and its position, the stream fed in chunks of `chunkSize` bytes.
    private func scan(_ bytes: [UInt8], chunkSize: Int) -> [(unit: [UInt8], position: AnnexBNALUnitPosition)] {
        var scanner = AnnexBStreamScanner()
        var found: [(unit: [UInt8], position: AnnexBNALUnitPosition)] = []
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let end = min(buffer.count, offset + chunkSize)
                scanner.append(UnsafeRawBufferPointer(rebasing: buffer[offset..<end])) { found.append((Array($0), $1)) }
                offset = end
            }
        }
        scanner.finish { found.append((Array($0), $1)) }
        return found
    }

    @Test(.requiresMedia) func positionsAreThoseOfTheWholeBufferScanAtEveryChunkSize() throws {
        // Real NAL units joined with every separator Annex B allows, and garbage before the first start code.
        let source = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let units = AnnexB.nalUnitRanges(in: source).map { Array(source[$0]) }
        let separators: [[UInt8]] = [[0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0, 0, 1], [0, 0, 1, 0, 0, 1]]
        var stream: [UInt8] = [0x47, 0x00]
        var expected: [AnnexBNALUnitPosition] = []
        for (index, unit) in units.enumerated() {
            let separator = separators[index % separators.count]
            stream += separator
            // The start code is the last 00 00 01, with one zero byte before it when there is one.
            let startCode = stream.count - 3 - (stream.count >= 4 && stream[stream.count - 4] == 0 ? 1 : 0)
            expected.append(AnnexBNALUnitPosition(byteOffset: stream.count, startCodeOffset: startCode))
            stream += unit
        }
        #expect(expected[0] == AnnexBNALUnitPosition(byteOffset: 5, startCodeOffset: 1))  // 47 | 00 00 00 01
        #expect(expected[1].byteOffset - expected[1].startCodeOffset == 4)
        for chunkSize in [1, 2, 3, 7, 4096, stream.count] {
            let found = scan(stream, chunkSize: chunkSize)
            #expect(found.map(\.unit) == units, "chunk size \(chunkSize)")
            #expect(found.map(\.position) == expected, "chunk size \(chunkSize)")
        }
    }

    @Test func theUnitInProgressAndDroppingIt() {
        var scanner = AnnexBStreamScanner()
        var found: [[UInt8]] = []
        #expect(scanner.pendingUnitPosition == nil)
        scanner.append([0x12, 0, 0, 0, 1, 0x67, 0x42]) { found.append(Array($0)) }
        #expect(scanner.pendingUnitPosition == AnnexBNALUnitPosition(byteOffset: 5, startCodeOffset: 1))
        scanner.append([UInt8](repeating: 0x55, count: 100)) { found.append(Array($0)) }
        scanner.dropPendingBytes()  // the unit in progress goes; its last bytes are kept for a split start code
        #expect(scanner.pendingUnitPosition == nil)
        scanner.append([0x55, 0, 0]) { found.append(Array($0)) }
        scanner.append([1, 0x68, 0xCE]) { found.append(Array($0)) }
        #expect(scanner.pendingUnitPosition == AnnexBNALUnitPosition(byteOffset: 111, startCodeOffset: 108))
        var last: (unit: [UInt8], position: AnnexBNALUnitPosition)?
        scanner.finish { last = (Array($0), $1) }
        #expect(found.isEmpty)
        #expect(last?.unit == [0x68, 0xCE] && last?.position == AnnexBNALUnitPosition(byteOffset: 111, startCodeOffset: 108))
        // The dropped unit's rest is not counted as bytes before the first start code.
        #expect(scanner.discardedLeadingBytes == 1)
    }
}

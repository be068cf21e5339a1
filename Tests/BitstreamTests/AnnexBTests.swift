import Testing
@testable import Bitstream

/// The Annex B scanner and length-prefixed (AVCC) framing on hand-built streams whose layout is known
/// by construction (ITU-T H.264 B.1.1).
@Suite struct AnnexBTests {
    /// Three NAL units with a 4-byte start code, a 3-byte one, leading and trailing zero bytes.
    static let units: [[UInt8]] = [[0x67, 0x42, 0x00, 0x1E], [0x68, 0xCE, 0x38, 0x80], [0x65, 0x88, 0x84, 0x00, 0x03, 0x01]]
    static let stream: [UInt8] = [0, 0, 0, 0] + [0, 0, 0, 1] + units[0] + [0, 0, 1] + units[1]
        + [0, 0, 0, 0, 0, 1] + units[2] + [0, 0, 0]

    @Test func findsUnitsAcrossStartCodeKinds() {
        let found = AnnexB.nalUnitRanges(in: Self.stream).map { Array(Self.stream[$0]) }
        #expect(found == Self.units)
        #expect(AnnexB.leadingGarbageCount(in: Self.stream) == 0)
    }

    @Test func ignoresBytesBeforeTheFirstStartCode() {
        let joined = [0x12, 0x34, 0x00] + Self.stream
        #expect(AnnexB.nalUnitRanges(in: joined).map { Array(joined[$0]) } == Self.units)
        #expect(AnnexB.leadingGarbageCount(in: joined) == 2)
    }

    @Test func emptyAndStartCodeOnlyStreamsHaveNoUnits() {
        #expect(AnnexB.nalUnitRanges(in: []).isEmpty)
        #expect(AnnexB.nalUnitRanges(in: [0, 0, 1]).isEmpty)
        #expect(AnnexB.nalUnitRanges(in: [0, 0, 0, 1, 0, 0, 1]).isEmpty)
        #expect(AnnexB.nalUnitRanges(in: [0, 1, 0x65]).isEmpty)
    }

    @Test func chunkedScanningMatchesWholeScanAtEverySplit() {
        let stream = Self.stream
        for first in 0...stream.count {
            for second in first...stream.count where (second - first) % 3 == 0 || second == stream.count {
                var scanner = AnnexBStreamScanner()
                var found = scanner.append(stream[0..<first])
                found += scanner.append(stream[first..<second])
                found += scanner.append(stream[second...])
                if let last = scanner.finish() { found.append(last) }
                #expect(found == Self.units, "split at \(first), \(second)")
            }
        }
    }

    @Test func byteAtATimeScanning() {
        var scanner = AnnexBStreamScanner()
        var found: [[UInt8]] = []
        for byte in [0x55] + Self.stream { found += scanner.append(CollectionOfOne(byte)) }
        if let last = scanner.finish() { found.append(last) }
        #expect(found == Self.units)
        #expect(scanner.discardedLeadingBytes == 1)
    }

    @Test func oversizedUnitsAreDroppedAndCounted() {
        var scanner = AnnexBStreamScanner(maximumNALUnitSize: 16)
        var found = scanner.append([0, 0, 1] + [UInt8](repeating: 0x41, count: 100) + [0, 0, 1, 0x09, 0xF0])
        if let last = scanner.finish() { found.append(last) }
        #expect(found == [[0x09, 0xF0]])
        #expect(scanner.oversizedUnits == 1)
    }

    /// The classic trap: a 4-byte AVCC length of 256…511 reads 00 00 01 xx, like a start code.
    @Test func avccLengthThatLooksLikeAStartCode() throws {
        let unit = [0x65] + [UInt8](repeating: 0xAB, count: 299)
        let annexB = AnnexB.startCode + unit + AnnexB.startCode + [0x41, 0x9A]
        let avcc = try AVCC.avcc(fromAnnexB: annexB)
        #expect(Array(avcc[0..<4]) == [0x00, 0x00, 0x01, 0x2C])
        let ranges = try AVCC.nalUnitRanges(in: avcc)
        #expect(ranges.map { Array(avcc[$0]) } == [unit, [0x41, 0x9A]])
        #expect(try AVCC.annexB(fromAVCC: avcc) == annexB)
    }

    @Test(arguments: [1, 2, 4])
    func avccRoundTripsWithEveryLengthSize(lengthSize: Int) throws {
        let annexB = Self.units.flatMap { AnnexB.startCode + $0 }
        let avcc = try AVCC.avcc(fromAnnexB: annexB, lengthSize: lengthSize)
        #expect(avcc.count == Self.units.reduce(0) { $0 + $1.count + lengthSize })
        #expect(try AVCC.annexB(fromAVCC: avcc, lengthSize: lengthSize) == annexB)
    }

    @Test func avccErrorsNameTheUnitAndOffset() {
        #expect(throws: AVCC.Failure.truncatedNALUnit(byteOffset: 6, nalIndex: 1, declared: 9, available: 2)) {
            _ = try AVCC.nalUnitRanges(in: [0, 0, 0, 2, 0x09, 0xF0, 0, 0, 0, 9, 0x65, 0x88])
        }
        #expect(throws: AVCC.Failure.truncatedLength(byteOffset: 3, nalIndex: 1)) {
            _ = try AVCC.nalUnitRanges(in: [0, 1, 0x09, 0], lengthSize: 2)
        }
        #expect(throws: AVCC.Failure.nalUnitTooLarge(nalIndex: 0, size: 300, lengthSize: 1)) {
            _ = try AVCC.avcc(fromAnnexB: AnnexB.startCode + [UInt8](repeating: 0x41, count: 300), lengthSize: 1)
        }
        #expect(throws: AVCC.Failure.unsupportedLengthSize(3)) {
            _ = try AVCC.nalUnitRanges(in: [], lengthSize: 3)
        }
    }
}

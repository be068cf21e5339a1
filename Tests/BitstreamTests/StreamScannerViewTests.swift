import CAllocationCounter
import Testing
import TestSupport
@testable import Bitstream

/// The chunked Annex B scanner and the view forms of the whole-buffer scanners: the same NAL units as
/// the whole-buffer scan wherever the stream is cut, handed out as views (no copies), and no heap
/// allocation per NAL unit (counted by the test binary's malloc counter).
@Suite(.requiresMedia) struct StreamScannerViewTests {
    static let small = "encoded/cars_320x240.h264"
    static let streams = [small, "encoded/cars_320x240.h265", "h264-conformance/jvt-avc-v1/BA1_Sony_D.jsv"]

    private func wholeScan(_ bytes: [UInt8]) -> [ByteView] { AnnexB.nalUnits(in: ByteView(bytes)) }

    /// Allocations the calling thread makes while `body` runs, or `nil` where the counter is not available.
    private func allocations(_ body: () -> Void) -> Int? {
        let before = streamkit_thread_allocation_count()
        body()
        let after = streamkit_thread_allocation_count()
        return before < 0 ? nil : after - before
    }

    @Test func chunkedScanEqualsWholeScanAtEverySplit() throws {
        let bytes = try MediaFiles.bytes(Self.small)
        let whole = wholeScan(bytes)
        #expect(whole.count > 30)
        var scanner = AnnexBStreamScanner()
        for split in 0...bytes.count {
            var units: [ByteView] = []
            units.reserveCapacity(whole.count)
            scanner.append(bytes[..<split]) { units.append($0) }
            scanner.append(bytes[split...]) { units.append($0) }
            scanner.finish { units.append($0) }
            if units != whole { Issue.record("split at \(split): \(units.count) units, whole scan \(whole.count)"); return }
        }
    }

    @Test(arguments: streams)
    func randomChunksAndKeptViewsEqualTheWholeScan(stream: String) throws {
        let bytes = try MediaFiles.bytes(stream)
        let whole = wholeScan(bytes)
        for seed in 1...3 {
            var generator = SplitMix64(seed: UInt64(seed))
            var scanner = AnnexBStreamScanner()
            var units: [ByteView] = []
            var offset = 0
            while offset < bytes.count {
                let size = min(bytes.count - offset, Int(generator.next() % 9_000) + 1)
                scanner.append(bytes[offset..<(offset + size)]) { units.append($0) }
                offset += size
            }
            scanner.finish { units.append($0) }
            // Every view was kept while the scanner went on: none was overwritten by a later chunk.
            #expect(units == whole, "seed \(seed)")
        }
    }

    @Test func unitsAreViewsIntoTheScannersBuffer() {
        var stream: [UInt8] = []
        for index in 0..<50 { stream += AnnexB.startCode + [0x41] + [UInt8](repeating: UInt8(index + 1), count: 20) }
        var scanner = AnnexBStreamScanner()
        var units: [ByteView] = []
        scanner.append(stream) { units.append($0) }
        #expect(units.count == 49)
        let addresses = units.map { $0.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }
        // Consecutive units sit 4 bytes apart (the start code) in one buffer: nothing was copied out.
        #expect(zip(addresses, addresses.dropFirst()).allSatisfy { $1 - $0 == 25 })
    }

    @Test func bytesReadStraightIntoTheBufferGiveTheWholeScan() throws {
        let bytes = try MediaFiles.bytes(Self.small)
        var scanner = AnnexBStreamScanner()
        var units: [ByteView] = []
        var offset = 0
        var reads = 0
        while true {
            let count = scanner.append(readingUpTo: 4_096, using: { buffer in
                let count = min(buffer.count, bytes.count - offset, 1_000 + reads * 37)
                buffer.copyBytes(from: bytes[offset..<(offset + count)])
                return count
            }) { units.append($0) }
            if count == 0 { break }
            offset += count
            reads += 1
        }
        scanner.finish { units.append($0) }
        #expect(offset == bytes.count)
        #expect(units == wholeScan(bytes))
    }

    @Test func scannerCopiesDoNotShareTheirBuffer() {
        var first = AnnexBStreamScanner()
        var ignored: [ByteView] = []
        first.append([0, 0, 1, 0x65, 0xAA]) { ignored.append($0) }
        var second = first
        var fromFirst: [[UInt8]] = []
        var fromSecond: [[UInt8]] = []
        first.append([0xBB, 0, 0, 1, 0x41]) { fromFirst.append(Array($0)) }
        second.append([0xCC, 0, 0, 1, 0x41]) { fromSecond.append(Array($0)) }
        #expect(fromFirst == [[0x65, 0xAA, 0xBB]])
        #expect(fromSecond == [[0x65, 0xAA, 0xCC]])
        #expect(ignored.isEmpty)
    }

    @Test func noAllocationPerNALUnit() throws {
        let bytes = try MediaFiles.bytes(Self.small)
        let unitCount = wholeScan(bytes).count
        var scanner = AnnexBStreamScanner()
        var seen = 0
        scanner.append(bytes[..<100]) { _ in seen += 1 }  // the first chunk allocates the buffer
        var byteTotal = 0
        let chunked = allocations {
            var offset = 100
            while offset < bytes.count {
                let end = min(bytes.count, offset + 1_500)  // a network-sized chunk
                scanner.append(bytes[offset..<end]) { unit in seen += 1; byteTotal += unit.count }
                offset = end
            }
            scanner.finish { unit in seen += 1; byteTotal += unit.count }
        }
        #expect(seen == unitCount)
        let view = ByteView(bytes)
        var wholeSeen = 0
        let whole = allocations { AnnexB.forEachNALUnit(in: view) { _ in wholeSeen += 1 } }
        var copying = AnnexBStreamScanner()
        var copied = 0
        let copyingForm = allocations { copied = copying.append(bytes).count }
        guard let chunked, let whole, let copyingForm else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(copyingForm >= copied, "the counter sees the copying form's per-unit arrays")
        #expect(chunked <= 2, "\(chunked) allocations for \(unitCount) NAL units")
        #expect(whole == 0)
        #expect(wholeSeen == unitCount && byteTotal > 0)
    }

    @Test func avccViewsAndAllocations() throws {
        let annexB = try MediaFiles.bytes(Self.small)
        let avcc = ByteView(try AVCC.avcc(fromAnnexB: annexB))
        let units = try AVCC.nalUnits(in: avcc, lengthSize: 4)
        #expect(units == wholeScan(annexB))
        let base = try #require(avcc.withUnsafeBytes { $0.baseAddress })
        #expect(units.first?.withUnsafeBytes { $0.baseAddress } == base + 4)
        var count = 0
        let allocated = allocations { try? AVCC.forEachNALUnit(in: avcc, lengthSize: 4) { _ in count += 1 } }
        #expect(count == units.count)
        if let allocated { #expect(allocated == 0) }
        // A cut-off buffer: the units before the cut are handed out, then the typed error.
        let cut = try #require(avcc.getView(at: 0, byteCount: avcc.count - 3))
        var before = 0
        #expect(throws: AVCC.Failure.self) { try AVCC.forEachNALUnit(in: cut, lengthSize: 4) { _ in before += 1 } }
        #expect(before == units.count - 1)
    }

    @Test func emulationPreventionViewIsTheInputWhenThereIsNothingToRemove() throws {
        let clean = ByteView([0x67, 0x42, 0x00, 0x00, 0x04, 0x01])
        #expect(EmulationPrevention.rbsp(fromEBSP: clean).isSameMemory(as: clean))
        let escaped = ByteView([0x65, 0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0x03])
        #expect(Array(EmulationPrevention.rbsp(fromEBSP: escaped)) == EmulationPrevention.rbsp(fromEBSP: Array(escaped)))
        for stream in Self.streams {
            let bytes = try MediaFiles.bytes(stream)
            for unit in wholeScan(bytes) {
                #expect(Array(EmulationPrevention.rbsp(fromEBSP: unit)) == EmulationPrevention.rbsp(fromEBSP: Array(unit)))
            }
        }
    }
}

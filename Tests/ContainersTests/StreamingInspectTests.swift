import Bitstream
import Containers
import Foundation
import Testing
import TestSupport

/// The chunked analysers: whatever the chunk size, the same events; NAL unit offsets equal the ones a
/// whole-buffer scan finds; a NAL unit longer than the cap is skipped, and what follows is still read.
@Suite(.requiresMedia)
struct StreamingInspectTests {
    /// Every event of a stream fed in chunks of `chunkSize` bytes.
    private func events(_ bytes: [UInt8], format: ElementaryStreamFormat, chunkSize: Int,
                        maximumNALUnitSize: Int = VideoStreamAnalyzer.defaultMaximumNALUnitSize) -> ([VideoStreamEvent], VideoStreamSummary) {
        var analyzer = VideoStreamAnalyzer(format: format, reportsNALUnits: true, maximumNALUnitSize: maximumNALUnitSize)
        var events: [VideoStreamEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            analyzer.append(Array(bytes[start..<end])) { events.append($0) }
            start = end
        }
        let summary = analyzer.finish { events.append($0) }
        return (events, summary)
    }

    @Test(arguments: ["encoded/cars_320x240.h264", "encoded/cars_320x240.h265",
                      "h264-conformance/jvt-frext/HCAFF1_HHI.264", "h264-conformance/jvt-avc-v1/BA1_FT_C.264"])
    func chunkSizeDoesNotChangeTheEvents(stream: String) throws {
        let bytes = try MediaFiles.bytes(stream)
        let format = try #require(ElementaryStreamFormat.detect(bytes))
        let (whole, summary) = events(bytes, format: format, chunkSize: bytes.count)
        #expect(summary.frameCount > 0 && summary.issueCount == 0)
        for chunkSize in [1, 2, 3, 5, 4095, 4097, 65536] {
            let (chunked, chunkedSummary) = events(bytes, format: format, chunkSize: chunkSize)
            #expect(chunked == whole, "chunk size \(chunkSize)")
            #expect(chunkedSummary == summary, "chunk size \(chunkSize)")
        }
    }

    @Test func nalUnitOffsetsMatchAWholeBufferScanWhateverTheSeparators() throws {
        // Real NAL units joined with every separator Annex B allows: 3- and 4-byte start codes, runs of
        // trailing zeros, an empty unit (a start code right after a start code), leading garbage.
        let source = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let units = AnnexB.nalUnitRanges(in: source).map { Array(source[$0]) }
        let separators: [[UInt8]] = [[0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0, 0, 1], [0, 0, 1, 0, 0, 1], [0, 0, 0, 1, 0, 0, 0, 1]]
        var stream: [UInt8] = [0x47, 0x00, 0x12]  // garbage before the first start code
        for (index, unit) in units.enumerated() {
            stream += separators[index % separators.count] + unit
            if index % 3 == 0 { stream += [0, 0] }  // trailing_zero_8bits
        }
        let expected = AnnexB.nalUnitRanges(in: stream).map(\.lowerBound)
        #expect(expected.count == units.count)
        for chunkSize in [1, 2, 3, 7, 4096, stream.count] {
            let (events, summary) = events(stream, format: .h264AnnexB, chunkSize: chunkSize)
            let offsets = events.compactMap { event -> Int? in
                if case let .nalUnit(unit) = event { return unit.byteOffset }
                return nil
            }
            #expect(offsets == expected, "chunk size \(chunkSize)")
            #expect(summary.nalUnitCount == units.count)
            #expect(summary.issues.first?.message == "2 bytes before the first start code are not part of any NAL unit")
            #expect(summary.frameCount == 30)
        }
        // Frame sizes still add up: every byte after the garbage belongs to one frame.
        let (events, _) = events(stream, format: .h264AnnexB, chunkSize: 4096)
        let frames = events.compactMap { event -> FrameSummary? in
            if case let .frame(frame) = event { return frame }
            return nil
        }
        #expect(frames.first?.byteOffset == 3)
        #expect(frames.reduce(0) { $0 + $1.size } == stream.count - 3)
    }

    @Test func aNALUnitLongerThanTheCapIsSkippedAndTheRestIsRead() throws {
        let source = try MediaFiles.bytes("encoded/cars_320x240.h264")
        let ranges = AnnexB.nalUnitRanges(in: source)
        let firstSlice = try #require(ranges.firstIndex { source[$0.lowerBound] & 0x1F == 5 })
        // SPS, PPS, SEI, then a 200 000-byte unit of type 12 (filler data), then the rest (whose largest
        // unit, the IDR slice, is 17 KB).
        var stream: [UInt8] = []
        for range in ranges[..<firstSlice] { stream += [0, 0, 0, 1] + source[range] }
        let oversizedOffset = stream.count + 4
        stream += [0, 0, 0, 1, 0x0C] + [UInt8](repeating: 0xFF, count: 200_000)
        let restOffset = stream.count
        for range in ranges[firstSlice...] { stream += [0, 0, 0, 1] + source[range] }
        let (events, summary) = events(stream, format: .h264AnnexB, chunkSize: 1000, maximumNALUnitSize: 1 << 16)
        let issue = try #require(summary.issues.first)
        #expect(issue.byteOffset == oversizedOffset && issue.message.contains("longer than 65536 bytes"))
        #expect(summary.issueCount == 1)
        #expect(summary.frameCount == 30)
        let offsets = events.compactMap { event -> Int? in
            if case let .nalUnit(unit) = event { return unit.byteOffset }
            return nil
        }
        let expectedRest = AnnexB.nalUnitRanges(in: Array(stream[restOffset...])).map { $0.lowerBound + restOffset }
        #expect(Array(offsets.suffix(expectedRest.count)) == expectedRest)
    }

    @Test func adtsChunkSizeDoesNotChangeTheReport() throws {
        for stream in MediaFiles.adtsStreams {
            let bytes = try MediaFiles.bytes(stream)
            let whole = ADTSStreamAnalyzer.analyze(bytes)
            for chunkSize in [1, 6, 7, 1000, 65536] {
                var analyzer = ADTSStreamAnalyzer()
                var start = 0
                while start < bytes.count {
                    analyzer.append(Array(bytes[start..<min(bytes.count, start + chunkSize)]))
                    start += chunkSize
                }
                #expect(analyzer.finish() == whole, "\(stream), chunk size \(chunkSize)")
            }
        }
    }

    @Test func inspectorReadsASourceInChunksAndDetectsTheFormat() throws {
        let bytes = try MediaFiles.bytes("encoded/cars_320x240.h265")
        var source = MemoryByteSource(bytes)
        var frames = 0
        let summary = try StreamInspector.inspect(&source, chunkSize: 1 << 16) { event in
            if case .frame = event { frames += 1 }
        }
        guard case let .video(video) = summary else {
            Issue.record("expected video, got \(summary)")
            return
        }
        #expect(video.codec == .hevc && video.frameCount == 30 && frames == 30)
        #expect(video.byteCount == bytes.count)
        var empty = MemoryByteSource([])
        #expect(throws: StreamInspectionError.empty) { try StreamInspector.inspect(&empty) }
    }
}

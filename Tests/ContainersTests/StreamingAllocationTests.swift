import Bitstream
import CAllocationCounter
import Testing
import TestSupport
@testable import Containers

/// The streaming video analyser reads NAL units as views into the scanner's buffer: once its buffers
/// exist, scanning and grouping a stream cost no heap allocation per NAL unit beyond what the codec
/// parsers themselves make — only the frame's own list of NAL types (counted by the test binary's
/// malloc counter).
@Suite struct StreamingAllocationTests {
    /// Allocations the calling thread makes while `body` runs, or `nil` where the counter is not available.
    private func allocations(_ body: () -> Void) -> Int? {
        let before = streamkit_thread_allocation_count()
        body()
        let after = streamkit_thread_allocation_count()
        return before < 0 ? nil : after - before
    }

    /// What the codec parsers alone allocate for the units of a stream read a second time.
    private func parserAllocations<Interpreter: NALUnitInterpreter>(_ interpreter: Interpreter, _ units: [ByteView]) -> Int? {
        var interpreter = interpreter
        for unit in units { _ = try? interpreter.interpret(unit) }
        return allocations { for unit in units { _ = try? interpreter.interpret(unit) } }
    }

    @Test(.requiresMedia, arguments: ["encoded/cars_320x240.h264", "encoded/cars_320x240.h265"])
    func noAllocationPerNALUnitBeyondTheParsers(stream: String) throws {
        // The stream twice, so the second copy runs with warm buffers and parameter sets already known.
        let once = try MediaFiles.bytes(stream)
        let bytes = once + once
        let format = try #require(ElementaryStreamFormat.detect(bytes))
        var analyzer = VideoStreamAnalyzer(format: format)
        var frames = 0
        let count = { (event: VideoStreamEvent) in if case .frame = event { frames += 1 } }
        let chunkSize = 1 << 16
        var measured: Int?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            func feed(upTo end: Int) {
                while offset < end {
                    let next = min(end, offset + chunkSize)
                    analyzer.append(UnsafeRawBufferPointer(rebasing: buffer[offset..<next]), count)
                    offset = next
                }
            }
            feed(upTo: once.count)
            measured = allocations { feed(upTo: bytes.count) }
        }
        let summary = analyzer.finish(count)
        let units = AnnexB.nalUnits(in: ByteView(once))
        let parsing = format == .hevcAnnexB ? parserAllocations(HEVCNALUnitInterpreter(), units)
            : parserAllocations(H264NALUnitInterpreter(), units)
        guard let measured, let parsing else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(summary.frameCount == 60 && frames == 60 && summary.issueCount == 0)
        #expect(units.count > summary.frameCount / 2)
        // In an optimised build the analyser itself allocates one list of NAL types per frame (see
        // scripts/benchmark-allocations.sh); a debug build adds about 4 per frame in unspecialised generic
        // and existential calls. A copy per NAL unit plus an array per scanned piece (the analyser before
        // the scanner handed out views) adds about 2 per frame on these streams, beyond this bound.
        let framesPerCopy = summary.frameCount / 2
        #expect(measured - parsing <= 5 * framesPerCopy + 8,
                "\(measured) allocations (\(parsing) in the parsers) for \(units.count) NAL units in \(framesPerCopy) frames")
    }
}

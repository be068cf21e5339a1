import AAC
import Foundation
import TestSupport
import Testing

/// The scanner's contract: the outcome never depends on where the chunks were cut. These tests hold
/// it to that on fuzzer-found inputs (Tests/FuzzCorpus) as well as on hand-made edge cases.
@Suite("ADTSFrameScanner chunk invariance")
struct ADTSChunkInvarianceTests {
    private static func corpus(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: MediaFiles.packageRoot.appendingPathComponent("Tests/FuzzCorpus/\(name)")))
    }

    /// Feeds `bytes` in pieces cut at `cuts` and collects every event, `finish()` included.
    private static func scan(_ bytes: [UInt8], cuts: [Int]) -> [ADTSScanEvent] {
        var scanner = ADTSFrameScanner()
        var events: [ADTSScanEvent] = []
        var start = 0
        for cut in cuts + [bytes.count] {
            events += scanner.append(bytes[start..<cut])
            start = cut
        }
        return events + scanner.finish()
    }

    /// Every byte is a frame, a skipped run or the truncated tail.
    private static func accountedBytes(_ result: ADTSScanResult) -> Int {
        result.frames.reduce(0) { $0 + $1.bytes.count } + result.skipped.reduce(0) { $0 + $1.count }
            + (result.truncation?.available ?? 0)
    }

    /// Checks whole, every two-piece split and byte-by-byte feeding of `bytes` give the same outcome.
    private static func expectChunkInvariant(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        var wholeScanner = ADTSFrameScanner()
        let wholeEvents = wholeScanner.append(bytes) + wholeScanner.finish()
        let whole = ADTSScanResult(events: wholeEvents)
        #expect(whole == ADTSFrameScanner.scan(bytes), sourceLocation: sourceLocation)
        #expect(accountedBytes(whole) == bytes.count, sourceLocation: sourceLocation)

        func compare(_ events: [ADTSScanEvent], _ label: String) -> Bool {
            let result = ADTSScanResult(events: events)
            guard events != wholeEvents else { return true }
            #expect(result.frames.map(\.byteOffset) == whole.frames.map(\.byteOffset),
                    "\(label): frame offsets", sourceLocation: sourceLocation)
            #expect(result.frames.count == whole.frames.count, "\(label): frame count", sourceLocation: sourceLocation)
            #expect(result.skipped == whole.skipped, "\(label): skipped runs", sourceLocation: sourceLocation)
            #expect(result.truncation == whole.truncation, "\(label): truncation", sourceLocation: sourceLocation)
            #expect(events == wholeEvents, "\(label): event sequence", sourceLocation: sourceLocation)
            return false
        }

        for cut in 0...bytes.count {
            if !compare(scan(bytes, cuts: [cut]), "split at \(cut)") { break }
        }
        _ = compare(scan(bytes, cuts: bytes.isEmpty ? [] : Array(1..<bytes.count)), "one byte at a time")
        // The exact call sequence of the fuzz target: halves, then finish.
        var halves = ADTSFrameScanner()
        let half = bytes.count / 2
        let halfEvents = halves.append(bytes[..<half]) + halves.append(bytes[half...]) + halves.finish()
        #expect(ADTSScanResult(events: halfEvents).frames.count == whole.frames.count, "halves: frame count",
                sourceLocation: sourceLocation)
    }

    @Test("fuzz corpus adts-id3-chunked-scan-mismatch.bin: whole and chunked scans agree at every split and byte by byte")
    func id3ChunkedScanMismatch() throws {
        let bytes = try Self.corpus("adts-id3-chunked-scan-mismatch.bin")
        #expect(bytes.count == 493)
        Self.expectChunkInvariant(bytes)
    }

    @Test("every ADTS fuzz corpus input scans the same whole and chunked")
    func adtsCorpus() throws {
        for name in ["adts-frame-length-3.aac", "adts-layer-1.aac", "adts-id3-chunked-scan-mismatch.bin"] {
            Self.expectChunkInvariant(try Self.corpus(name))
        }
    }

    /// A frame found while searching, followed by an ID3v2 tag: the tag confirms the frame. When a cut
    /// leaves only the first few bytes of the tag ("ID3…", fewer than its 10-byte header), the scanner
    /// must wait, not compare those bytes with an ADTS header and reject the frame.
    @Test("a resynchronised frame followed by an ID3v2 tag is confirmed whatever the cut")
    func frameBeforeTagAfterGarbage() throws {
        let frame = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 44100, channels: 2, payloadLength: 23).serialized()
            + [UInt8](repeating: 0x21, count: 23)
        let tag: [UInt8] = [0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02, 0x03]
        let bytes: [UInt8] = [0x00, 0x12, 0x34] + frame + tag + frame
        let whole = ADTSFrameScanner.scan(bytes)
        #expect(whole.frames.map(\.byteOffset) == [3, 3 + frame.count + tag.count])
        #expect(whole.skipped.map(\.count) == [3, tag.count])
        Self.expectChunkInvariant(bytes)
    }

    /// Random streams assembled from the pieces that make the state machine branch: frames (plain,
    /// protected, multi-block with a correct or broken header CRC), ID3v2 tags (with and without
    /// footer), bare "I"/"ID"/"ID3" prefixes, stray 0xFF and false syncwords, garbage, and a cut frame
    /// at the end. Each must scan the same whole, at every two-piece split and byte by byte.
    @Test("seeded random streams of frames, tags and near-misses scan the same however they are cut")
    func randomStreams() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        func frame() throws -> [UInt8] {
            let payload = 2 + next(40)
            var header = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 44100, channels: 2, payloadLength: payload)
            switch next(3) {
            case 1:
                header = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC, samplingFrequencyIndex: header.samplingFrequencyIndex,
                                        channelConfiguration: header.channelConfiguration, frameLength: 9 + payload)
            case 2:
                let blocks = 1 + next(3)
                let positions = (1...blocks).map { UInt16($0 * 6) }
                header = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC, samplingFrequencyIndex: header.samplingFrequencyIndex,
                                        channelConfiguration: header.channelConfiguration, frameLength: 9 + 2 * blocks + 6 * (blocks + 1) + 2,
                                        numberOfRawDataBlocksInFrame: blocks, rawDataBlockPositions: positions)
                header = header.withCRCCheck(next(4) == 0 ? 0x1234 : header.crcAfterHeader().value)
            default:
                break
            }
            return header.serialized() + (0..<header.payloadLength).map { _ in UInt8(next(256)) }
        }
        func tag() -> [UInt8] {
            let size = next(20)
            let footer = next(3) == 0
            return [0x49, 0x44, 0x33, 0x04, 0x00, footer ? 0x10 : 0x00, 0, 0, 0, UInt8(size)]
                + (0..<(size + (footer ? 10 : 0))).map { _ in UInt8(next(256)) }
        }
        for _ in 0..<120 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + next(10)) {
                switch next(9) {
                case 0, 1, 2: bytes += try frame()
                case 3: bytes += tag()
                case 4: bytes += Array([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00].prefix(1 + next(7)))
                case 5: bytes += [0xFF, 0xF1, 0x50, 0x80][..<(1 + next(4))]
                case 6: bytes += (0..<next(6)).map { _ in [0xFF, 0x49, 0x00, UInt8(next(256))][next(4)] }
                case 7: bytes += Array(try frame().prefix(1 + next(12)))
                default: bytes += (0..<(1 + next(8))).map { _ in UInt8(next(256)) }
                }
            }
            Self.expectChunkInvariant(bytes)
        }
    }
}

import AAC
import Foundation
import TestSupport
import Testing

/// Payload lengths ("data = length N") of track 0 in an ExoPlayer extractor dump, in sample order.
/// The dumps come with the media (google/ExoPlayer `extractordumps`), written by ExoPlayer's extractor.
private func exoPlayerPayloadLengths(_ relativePath: String) throws -> [Int] {
    let text = String(decoding: try MediaFiles.bytes(relativePath), as: UTF8.self)
    var lengths: [Int] = []
    var inSamples = false
    for line in text.split(separator: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("track ") && !trimmed.hasPrefix("track 0") { break }
        if trimmed.hasPrefix("sample "), trimmed.hasSuffix(":") { inSamples = true }
        if inSamples, trimmed.hasPrefix("data = length "),
           let number = Int(trimmed.dropFirst("data = length ".count).prefix { $0.isNumber }) {
            lengths.append(number)
        }
    }
    return lengths
}

/// Every byte is a frame, a skipped run or the truncated tail.
private func accountedBytes(_ result: ADTSScanResult) -> Int {
    result.frames.reduce(0) { $0 + $1.bytes.count } + result.skipped.reduce(0) { $0 + $1.count } + (result.truncation?.available ?? 0)
}

/// Feeds `bytes` in pieces cut at `cuts` and collects every event.
private func scanInPieces(_ bytes: [UInt8], cuts: [Int]) -> [ADTSScanEvent] {
    var scanner = ADTSFrameScanner()
    var events: [ADTSScanEvent] = []
    var start = 0
    for cut in cuts + [bytes.count] {
        events += scanner.append(bytes[start..<cut])
        start = cut
    }
    return events + scanner.finish()
}

@Suite("ADTSFrameScanner")
struct ADTSFrameScannerTests {
    @Test("sample.adts: 144 frames, 30797 payload bytes, lengths as ExoPlayer's dump", .requiresMedia)
    func sampleFile() throws {
        let bytes = try MediaFiles.bytes(Media.sample)
        let result = ADTSFrameScanner.scan(bytes)
        // MANIFEST.md and ExoPlayer's sample.adts.0.dump: 144 frames, 30797 payload bytes.
        #expect(result.frames.count == 144)
        #expect(result.frames.reduce(0) { $0 + $1.payload.count } == 30797)
        #expect(result.skipped.isEmpty)
        #expect(result.truncation == nil)
        #expect(result.frames.map(\.payload.count) == (try exoPlayerPayloadLengths("audio/exoplayer/sample.adts.0.dump")))
        #expect(result.frames.map(\.index) == Array(0..<144))
        var offset = 0
        for frame in result.frames {
            #expect(frame.byteOffset == offset)
            offset += frame.header.frameLength
        }
        #expect(offset == bytes.count)
    }

    @Test("sample.adts: frame count equals ffprobe -count_packets", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func sampleFileAgainstFFprobe() throws {
        let probe = try Tools.probeAudio(MediaFiles.url(Media.sample))
        let result = ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample))
        #expect(probe["nb_read_packets"] == "\(result.frames.count)")
    }

    @Test("sample_with_id3.adts: both ID3v2 tags are skipped and reported, and the same 144 frames remain", .requiresMedia)
    func id3File() throws {
        let plain = ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample))
        let bytes = try MediaFiles.bytes(Media.sampleWithID3)
        let result = ADTSFrameScanner.scan(bytes)
        // The file holds two ID3v2.4 tags (xxd: "ID3" at 0 with size 0x2D, and "ID3" at 85, size 0x4C, after
        // the first 30-byte frame): 10 + 45 and 10 + 76 bytes, together the 141 bytes it has more than sample.adts.
        #expect(result.skipped == [ADTSSkippedBytes(byteOffset: 0, count: 55, reason: .id3v2Tag),
                                   ADTSSkippedBytes(byteOffset: 85, count: 86, reason: .id3v2Tag)])
        #expect(bytes.count - (try MediaFiles.bytes(Media.sample)).count == 141)
        #expect(result.frames.count == 144)
        #expect(result.frames.map(\.payload) == plain.frames.map(\.payload))
        #expect(result.frames.first?.byteOffset == 55)
        #expect(result.frames.dropFirst().first?.byteOffset == 171) // 85 + 86
        #expect(result.truncation == nil)
        #expect(accountedBytes(result) == bytes.count)
    }

    @Test("sample_with_id3.adts: frame count equals ffprobe", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func id3FileAgainstFFprobe() throws {
        let probe = try Tools.probeAudio(MediaFiles.url(Media.sampleWithID3))
        #expect(probe["nb_read_packets"] == "\(ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sampleWithID3)).frames.count)")
    }

    @Test("sample_cbs_truncated.adts: 143 complete frames, then frame 143 truncated with 171 bytes", .requiresMedia)
    func truncatedFile() throws {
        let bytes = try MediaFiles.bytes(Media.sampleTruncated)
        let result = ADTSFrameScanner.scan(bytes)
        #expect(result.frames.count == 143)
        #expect(result.skipped.isEmpty)
        let truncation = try #require(result.truncation)
        #expect(truncation.frameIndex == 143)
        #expect(truncation.available == 171)
        #expect(truncation.byteOffset == bytes.count - 171)
        // The complete file's frame 143 tells how long the truncated one should be.
        let complete = ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample))
        #expect(truncation.needed == complete.frames[143].header.frameLength)
        #expect(truncation.header == complete.frames[143].header)
        #expect(Array(result.frames.map(\.payload.count)) == Array((try exoPlayerPayloadLengths("audio/exoplayer/sample_cbs_truncated.adts.0.dump")).prefix(143)))
        #expect(accountedBytes(result) == bytes.count)
    }

    @Test("sample_cbs_truncated.adts: ffprobe counts the 143 frames plus the cut one", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffprobe")))
    func truncatedFileAgainstFFprobe() throws {
        let probe = try Tools.probeAudio(MediaFiles.url(Media.sampleTruncated))
        let result = ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sampleTruncated))
        #expect(probe["nb_read_packets"] == "\(result.frames.count + (result.truncation == nil ? 0 : 1))")
    }

    /// ID3 tag + 6 frames + garbage (with false syncwords) + 4 frames + a cut frame: all taken from the
    /// real files.
    private func compositeStream() throws -> (bytes: [UInt8], tagLength: Int, garbageOffset: Int) {
        let withTag = try MediaFiles.bytes(Media.sampleWithID3)
        let plain = try MediaFiles.bytes(Media.sample)
        let tagLength = 55 // the first ID3v2 tag of sample_with_id3.adts
        let frames = ADTSFrameScanner.scan(plain).frames
        var bytes = Array(withTag.prefix(tagLength))
        for frame in frames[0..<6] { bytes += frame.bytes }
        let garbageOffset = bytes.count
        // False syncwords: a layer-1 header, a reserved sampling index, a too-short aac_frame_length,
        // and a header whose successor does not match.
        bytes += [0x00, 0xFF, 0xF3, 0x50, 0x40, 0x00, 0x20, 0x00, 0x12, 0xFF, 0xF1, 0x74, 0x40, 0x01, 0x00, 0x00,
                  0x49, 0x44, 0x32, 0xFF, 0xF1, 0x50, 0x40, 0x00, 0x20, 0x00, 0x33, 0xFF, 0xF1, 0x50, 0x40, 0x01, 0x20,
                  0x00, 0x77, 0x10, 0x20, 0x30, 0x40]
        for frame in frames[6..<10] { bytes += frame.bytes }
        bytes += frames[10].bytes.prefix(50)
        return (bytes, tagLength, garbageOffset)
    }

    @Test("composite stream: tag, frames, resync over garbage, truncated tail; every byte accounted for", .requiresMedia)
    func compositeWhole() throws {
        let (bytes, tagLength, garbageOffset) = try compositeStream()
        let result = ADTSFrameScanner.scan(bytes)
        #expect(result.frames.count == 10)
        #expect(result.frames.map(\.index) == Array(0..<10))
        #expect(result.skipped.count == 2)
        #expect(result.skipped.first == ADTSSkippedBytes(byteOffset: 0, count: tagLength, reason: .id3v2Tag))
        let garbage = try #require(result.skipped.last)
        #expect(garbage.byteOffset == garbageOffset)
        #expect(garbage.count == 39)
        guard case let .lostSync(firstError) = garbage.reason else { Issue.record("expected lost sync"); return }
        #expect(firstError.field == "syncword")
        #expect(firstError.byteOffset == garbageOffset)
        let truncation = try #require(result.truncation)
        #expect(truncation.frameIndex == 10)
        #expect(truncation.available == 50)
        #expect(accountedBytes(result) == bytes.count)
    }

    @Test("chunked input: a split at every offset gives the same events as one buffer", .requiresMedia)
    func everySplit() throws {
        let (bytes, _, _) = try compositeStream()
        var whole = ADTSFrameScanner()
        let expected = whole.append(bytes) + whole.finish()
        for cut in 0...bytes.count {
            let events = scanInPieces(bytes, cuts: [cut])
            if events != expected {
                Issue.record("split at \(cut) differs")
                return
            }
        }
    }

    @Test("chunked input: one byte at a time, and uneven pieces, give the same events", .requiresMedia)
    func bytewiseAndUneven() throws {
        let (bytes, _, _) = try compositeStream()
        var whole = ADTSFrameScanner()
        let expected = whole.append(bytes) + whole.finish()
        #expect(scanInPieces(bytes, cuts: Array(1..<bytes.count)) == expected)
        var cuts: [Int] = []
        var position = 0
        var step = 1
        while position + step < bytes.count {
            position += step
            cuts.append(position)
            step = step * 7 % 97 + 1
        }
        #expect(scanInPieces(bytes, cuts: cuts) == expected)
    }

    @Test("random bytes: no frames, every byte reported as skipped or truncated, no trap")
    func randomBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: 65536)
        for index in bytes.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let result = ADTSFrameScanner.scan(bytes)
        #expect(result.frames.isEmpty)
        #expect(accountedBytes(result) == bytes.count)
        var chunked = ADTSFrameScanner()
        var events: [ADTSScanEvent] = []
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            events += chunked.append(bytes[start..<min(bytes.count, start + 1000)])
        }
        events += chunked.finish()
        #expect(ADTSScanResult(events: events) == result)
    }

    @Test("an ADTS file written by ffmpeg scans the same whole and in 700-byte chunks", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func ffmpegFileChunked() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Tools.encodeSine(sampleRate: 22050, channels: 2, seconds: 0.5, into: directory)
        let bytes = [UInt8](try Data(contentsOf: url))
        let whole = ADTSFrameScanner.scan(bytes)
        #expect(!whole.frames.isEmpty)
        #expect(whole.skipped.isEmpty && whole.truncation == nil)
        let events = scanInPieces(bytes, cuts: Array(stride(from: 700, to: bytes.count, by: 700)))
        #expect(ADTSScanResult(events: events) == whole)
    }
}

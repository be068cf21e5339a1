import AAC
import Containers
import Foundation
import Testing
import TestSupport

/// ADTS streams `inspect` used to get wrong: one whole frame and a cut second one (was "not ADTS"), and
/// `crc_check` (was neither checked nor reported). ffprobe is the oracle for the framing; no tool here
/// writes or checks ADTS CRCs (FFmpeg's muxer has no CRC option and its decoder skips the field), so
/// the protected streams are built with our header writer and their CRCs computed by a plain bitwise
/// CRC-16 written in this test from the parameters of ISO/IEC 13818-7 §8.3 (polynomial 0x8005,
/// register preset to 0xFFFF, no reflection, no final inversion).
@Suite(.requiresMedia, .enabled(if: ExternalTool.isRunnable("ffprobe")))
struct ADTSInspectTests {
    private static let sample = "audio/exoplayer/sample.adts"

    /// The whole frames of sample.adts.
    private func frames() throws -> [ADTSFrame] {
        ADTSFrameScanner.scan(try MediaFiles.bytes(Self.sample)).frames
    }

    /// The CRC-16 of ADTS, bit by bit.
    private func crc16(_ bytes: [UInt8]) -> UInt16 {
        var register: UInt16 = 0xFFFF
        for byte in bytes {
            for bit in (0..<8).reversed() {
                let input = (byte >> UInt8(bit)) & 1
                let top = UInt8(register >> 15)
                register <<= 1
                if input ^ top == 1 { register ^= 0x8005 }
            }
        }
        return register
    }

    private func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = try ExternalTool.temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func ffprobePacketSizes(_ path: String) throws -> [Int] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-f", "aac", "-show_packets", "-show_entries", "packet=size",
                                                       "-of", "csv=p=0", path])
        return output.text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test func oneWholeFrameAndATruncatedSecondIsADTS() throws {
        let frames = try frames()
        // Frame 10 (230 bytes) cut in half after frame 0: its header arrived whole.
        let bytes = Array(frames[0].bytes) + Array(frames[10].bytes.prefix(115))
        #expect(ElementaryStreamFormat.detect(bytes) == .adts)
        let report = ADTSStreamAnalyzer.analyze(bytes)
        #expect(report.frameCount == 1 && report.sampleRate == 44100 && report.channelCount == 1 && report.profile == "LC")
        let cut = try #require(report.truncation)
        #expect(cut.frameIndex == 1 && cut.byteOffset == frames[0].bytes.count && cut.needed == 230 && cut.available == 115)
        #expect(report.issues.count == 1 && report.issues.first?.message.contains("truncated") == true)
        // ffprobe's demuxer hands the cut frame out as a packet of its own.
        #expect(try ffprobePacketSizes(try write(bytes, name: "cut.aac")) == [frames[0].bytes.count, 115])
    }

    @Test func oneWholeFrameAndACutHeaderIsADTS() throws {
        let frames = try frames()
        let bytes = Array(frames[0].bytes) + Array(frames[10].bytes.prefix(3))
        #expect(ElementaryStreamFormat.detect(bytes) == .adts)
        let report = ADTSStreamAnalyzer.analyze(bytes)
        #expect(report.frameCount == 1)
        #expect(report.truncation?.available == 3 && report.truncation?.header == nil)
        // ffprobe drops a tail shorter than a header.
        #expect(try ffprobePacketSizes(try write(bytes, name: "cut-header.aac")) == [frames[0].bytes.count])
        // A frame followed by bytes that are not a header stays "not ADTS".
        #expect(ElementaryStreamFormat.detect(Array(frames[0].bytes) + [0x12, 0x34, 0x56]) == nil)
    }

    /// sample.adts regrouped into protected frames of four raw data blocks each: header, three
    /// `raw_data_block_position`s and the header `crc_check`, then each block and a 2-byte block CRC.
    private func protectedMultiBlockStream(privateBitInFrame damaged: Int? = nil) throws -> (bytes: [UInt8], offsets: [Int]) {
        let payloads = try frames().map { Array($0.payload) }
        var stream: [UInt8] = []
        var offsets: [Int] = []
        for (group, start) in stride(from: 0, to: payloads.count - 3, by: 4).enumerated() {
            let blocks = Array(payloads[start..<(start + 4)])
            var positions: [UInt16] = []
            var position = 0
            for block in blocks.dropLast() {
                position += block.count + 2
                positions.append(UInt16(position))
            }
            let length = 7 + 2 * 3 + 2 + blocks.reduce(0) { $0 + $1.count + 2 }
            let draft = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC, samplingFrequencyIndex: .hz44100,
                                       channelConfiguration: .mono, frameLength: length, numberOfRawDataBlocksInFrame: 3,
                                       rawDataBlockPositions: positions)
            var header = draft.serialized()
            header.replaceSubrange(13..<15, with: { let crc = crc16(Array(header.prefix(13))); return [UInt8(crc >> 8), UInt8(crc & 0xFF)] }())
            if group == damaged { header[2] ^= 0x02 }  // private_bit: still a valid header, but the CRC no longer fits
            offsets.append(stream.count)
            stream += header
            for block in blocks { stream += block + [0, 0] }
        }
        return (stream, offsets)
    }

    @Test func protectedMultiBlockFramesAreCheckedAndCounted() throws {
        let (bytes, offsets) = try protectedMultiBlockStream()
        #expect(ElementaryStreamFormat.detect(bytes) == .adts)
        let report = ADTSStreamAnalyzer.analyze(bytes)
        #expect(report.frameCount == 36 && report.rawDataBlockCount == 144)
        #expect(report.crcProtectedFrameCount == 36 && report.crcCheckedFrameCount == 36 && report.crcMismatchCount == 0)
        #expect(report.issues.isEmpty)
        // ffprobe splits the same frames.
        let sizes = try ffprobePacketSizes(try write(bytes, name: "protected.aac"))
        #expect(sizes.count == 36)
        #expect(sizes == zip(offsets, offsets.dropFirst() + [bytes.count]).map { $1 - $0 })
    }

    @Test func oneCorruptByteIsACRCMismatchNamingTheFrame() throws {
        let (bytes, offsets) = try protectedMultiBlockStream(privateBitInFrame: 5)
        let report = ADTSStreamAnalyzer.analyze(bytes)
        #expect(report.frameCount == 36, "a CRC mismatch must not be taken for lost sync")
        #expect(report.crcCheckedFrameCount == 36 && report.crcMismatchCount == 1)
        let issue = try #require(report.issues.first)
        #expect(report.issues.count == 1)
        #expect(issue.unitIndex == 5 && issue.byteOffset == offsets[5] + 13)
        #expect(issue.message.contains("crc_check"))
    }

    @Test func protectedSingleBlockFramesAreCountedNotChecked() throws {
        // One block per frame: the CRC covers parts of the raw data block's elements, whose extent only
        // decoding finds, so they are reported as protected and not checked (never as mismatches).
        var bytes: [UInt8] = []
        for frame in try frames() {
            let payload = Array(frame.payload)
            let header = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC, samplingFrequencyIndex: .hz44100,
                                        channelConfiguration: .mono, frameLength: payload.count + 9, crcCheck: 0x1234)
            bytes += header.serialized() + payload
        }
        let report = ADTSStreamAnalyzer.analyze(bytes)
        #expect(report.frameCount == 144)
        #expect(report.crcProtectedFrameCount == 144 && report.crcCheckedFrameCount == 0 && report.crcMismatchCount == 0)
        #expect(try ffprobePacketSizes(try write(bytes, name: "protected-single.aac")).count == 144)
    }
}

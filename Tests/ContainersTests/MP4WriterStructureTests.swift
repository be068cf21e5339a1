import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The MP4 writers without an encoder: typed errors, the fragment cuts, the sinks' insertion, and
/// ffprobe reading the sample tables of samples made here (their slice bytes are not decodable;
/// ffprobe demuxes, it does not decode).
@Suite("MP4 writers: structure and errors")
struct MP4WriterStructureTests {
    /// x264's SPS and PPS of a 1280x720 High-profile stream.
    static let format = FormatDescription(
        codec: .h264, width: 1280, height: 720, profileLevel: .h264High,
        parameterSets: [bytes("6764001facd9405005bb0110000003001000000303c0f1831960"), bytes("68ebecb22c")])

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    /// `count` samples at 30 fps (90 kHz), a key frame every `gop`, with B-frame-like reordering
    /// when `reordered` (decode order I P B B P B B …, pts two frames after dts at most).
    static func samples(count: Int, gop: Int, reordered: Bool = false) -> [MP4Sample] {
        (0..<count).map { index in
            let dts = Int64(index) * 3000 - (reordered ? 6000 : 0)
            var pts = Int64(index) * 3000
            if reordered, index % gop != 0 {
                let position = index % 3
                pts = position == 1 ? Int64(index + 2) * 3000 : Int64(index - 1) * 3000
            }
            let payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 100 + index % 7)
            let data: [UInt8] = [0, 0, 0, UInt8(payload.count + 1), index % gop == 0 ? 0x65 : 0x41] + payload
            return MP4Sample(data: data, dts: MediaTime(value: dts, timescale: 90_000), pts: MediaTime(value: pts, timescale: 90_000),
                             duration: MediaTime(value: 3000, timescale: 90_000), isKeyFrame: index % gop == 0)
        }
    }

    @Test("fragments end before each key frame; the init segment comes with the first; mfra's mfro gives its size")
    func fragmentCuts() throws {
        var muxer = try FragmentedMP4Muxer(tracks: [.video(Self.format)], options: FragmentedMP4Options(writesSegmentIndex: true))
        var fragments: [MP4Fragment] = []
        for sample in Self.samples(count: 35, gop: 10) {
            if let fragment = try muxer.append(sample, toTrack: 0) { fragments.append(fragment) }
            if fragments.isEmpty { #expect(muxer.initializationSegment == nil) }
        }
        if let last = try muxer.finish() { fragments.append(last) }
        #expect(fragments.map(\.sampleCount) == [10, 10, 10, 5])
        #expect(fragments.map(\.sequenceNumber) == [1, 2, 3, 4])
        #expect(fragments.allSatisfy { $0.startsWithKeyFrame })
        #expect(fragments.map { $0.startTime.value } == [0, 30_000, 60_000, 90_000])
        #expect(fragments.map { $0.duration.value } == [30_000, 30_000, 30_000, 15_000])
        let initialization = try #require(muxer.initializationSegment)
        #expect(MP4Boxes.payloads(of: "trex", in: initialization).count == 1)
        for fragment in fragments {
            let bytes = fragment.bytes()
            #expect(bytes.count == fragment.byteCount)
            #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "sidx")
        }
        let index = muxer.randomAccessIndex()
        #expect(String(decoding: index[4..<8], as: UTF8.self) == "mfra")
        #expect(Array(index.suffix(4)) == Array(index.prefix(4)), "mfro holds the mfra size")
        #expect(throws: ContainerWriteError.alreadyFinished) { try muxer.finish() }
    }

    @Test("fragmentDuration: a fragment holds at least that much, then ends at the next key frame")
    func fragmentDuration() throws {
        var muxer = try FragmentedMP4Muxer(tracks: [.video(Self.format)],
                                           options: FragmentedMP4Options(fragmentDuration: MediaTime(value: 2, timescale: 1)))
        var counts: [Int] = []
        for sample in Self.samples(count: 100, gop: 15) {
            if let fragment = try muxer.append(sample, toTrack: 0) { counts.append(fragment.sampleCount) }
        }
        if let last = try muxer.finish() { counts.append(last.sampleCount) }
        // Key frames every 15: the first fragment reaches 2 s at frame 60; the second holds 40 < 60 at the end.
        #expect(counts == [60, 40])
    }

    @Test("typed errors: no track, a missing track, decode time going back, after finish, faststart on a sink that cannot insert")
    func errors() throws {
        #expect(throws: ContainerWriteError.invalidConfiguration("an MP4 file needs at least one track")) {
            try MP4Writer(sink: MemoryByteSink(), tracks: [])
        }
        var writer = try MP4Writer(sink: MemoryByteSink(), tracks: [.video(Self.format)])
        let samples = Self.samples(count: 3, gop: 10)
        #expect(throws: ContainerWriteError.invalidConfiguration("track 1 does not exist (the writer has 1)")) {
            try writer.append(samples[0], toTrack: 1)
        }
        try writer.append(samples[1], toTrack: 0)
        #expect {
            try writer.append(samples[0], toTrack: 0)
        } throws: { error in
            guard case let .frameMismatch(index, reason) = error as? ContainerWriteError else { return false }
            return index == 1 && reason.contains("decode time")
        }
        try writer.finish()
        #expect(throws: ContainerWriteError.alreadyFinished) { try writer.append(samples[2], toTrack: 0) }
        #expect {
            try MP4Writer(sink: NonInsertingSink(), tracks: [.video(Self.format)], options: MP4WriterOptions(faststart: true))
        } throws: { error in
            guard case let .invalidConfiguration(text) = error as? ContainerWriteError else { return false }
            return text.contains("faststart")
        }
        let noConfig = AudioFormatDescription(codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC", audioSpecificConfig: [])
        #expect {
            try FragmentedMP4Muxer(tracks: [.audio(noConfig)])
        } throws: { error in
            guard case let .invalidConfiguration(text) = error as? ContainerWriteError else { return false }
            return text.contains("AudioSpecificConfig")
        }
        let broken = FormatDescription(codec: .h264, width: 16, height: 16, profileLevel: .h264High, parameterSets: [[0x67, 0xFF]])
        #expect {
            try MP4Writer(sink: MemoryByteSink(), tracks: [.video(broken)])
        } throws: { error in
            guard case let .invalidConfiguration(text) = error as? ContainerWriteError else { return false }
            return text.hasPrefix("avcC")
        }
    }

    @Test("insert(_:at:): memory and file sinks move the tail along (several blocks)")
    func insertion() throws {
        let original = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let inserted = [UInt8](repeating: 0xAB, count: 1234)
        var memory = MemoryByteSink()
        try memory.write(original)
        try memory.insert(inserted, at: 100)
        let expected = Array(original[0..<100]) + inserted + Array(original[100...])
        #expect(memory.bytes == expected)
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("insert.bin").path
        let file = try FileByteSink(path: path, bufferCapacity: 4096)
        try file.write(original)
        try file.insert(inserted, at: 100)
        try file.write([1, 2, 3])
        try file.close()
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected + [1, 2, 3])
        #expect(throws: ContainerIOError.self) { try memory.insert([1], at: expected.count + 1) }
    }

    @Test("ffprobe demuxes what we write: sample count, pts/dts of reordered samples, key flags, start 0; classic, faststart, co64, fragmented",
          .enabled(if: ExternalTool.isRunnable("ffprobe")), arguments: [0, 1, 2, 3])
    func ffprobeDemuxes(layout: Int) async throws {
        let samples = Self.samples(count: 40, gop: 10, reordered: true)
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("structure-\(layout).mp4").path
        if layout == 3 {
            var writer = try FragmentedMP4Writer(path: path, tracks: [.video(Self.format)])
            for sample in samples { try writer.append(sample, toTrack: 0) }
            try writer.finish()
        } else {
            let options = MP4WriterOptions(faststart: layout == 1, usesLargeChunkOffsets: layout == 2)
            var writer = try MP4Writer(path: path, tracks: [.video(Self.format)], options: options)
            for sample in samples { try writer.append(sample, toTrack: 0) }
            try writer.finish()
        }
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                        "packet=pts,dts,flags,size", "-of", "csv=p=0", path])
        let packets = output.text.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(packets.count == 40)
        let firstPTS = samples[0].pts
        #expect(packets.map { Int64($0[0]) } == samples.map { ($0.pts - firstPTS).converted(to: 90_000).value })
        #expect(packets.map { Int64($0[1]) } == samples.map { ($0.dts - firstPTS).converted(to: 90_000).value })
        #expect(packets.map { Int($0[2]) } == samples.map(\.data.count))
        #expect(packets.map { $0[3].hasPrefix("K") } == samples.map(\.isKeyFrame))
        let stream = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile,width,height,start_time",
                                                        "-of", "csv=p=0", path])
        #expect(stream.text.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,High,1280,720,0.000000")
    }
}

/// A sink that cannot go back or insert (a pipe).
private struct NonInsertingSink: ByteSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) {}
    mutating func overwrite(_ bytes: [UInt8], at offset: Int) throws(ContainerIOError) {
        throw ContainerIOError(operation: .overwrite, path: "<pipe>", code: 29)
    }
    mutating func flush() {}
    mutating func close() {}
}

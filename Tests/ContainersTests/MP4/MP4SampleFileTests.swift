import Containers
import Foundation
import Testing
import TestSupport

/// The shared media's `encoded/sample.mp4` against ExoPlayer's dump of it (`sample.mp4.0.dump`): per track the
/// sample count, and per sample the presentation time in microseconds, the flags (1 = key frame), the size and
/// the hash ExoPlayer prints (Java's `Arrays.hashCode` of the bytes).
@Suite("MP4 reader: sample.mp4 against ExoPlayer's dump", .requiresMedia)
struct MP4SampleFileTests {
    struct DumpedSample: Equatable {
        var time: Int64
        var isKey: Bool
        var size: Int
        var hash: String
    }

    static func dump() throws -> [[DumpedSample]] {
        let text = try String(contentsOf: MediaFiles.url("encoded/sample.mp4.0.dump"), encoding: .utf8)
        var tracks: [[DumpedSample]] = []
        var current: DumpedSample?
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("track ") { tracks.append([]) }
            if line.hasPrefix("time = ") { current = DumpedSample(time: Int64(line.dropFirst(7)) ?? -1, isKey: false, size: 0, hash: "") }
            if line.hasPrefix("flags = "), let flags = Int(line.dropFirst(8)) { current?.isKey = flags & 1 != 0 }
            if line.hasPrefix("data = length "), var sample = current {
                let parts = line.dropFirst(14).components(separatedBy: ", hash ")
                sample.size = Int(parts[0]) ?? -1
                sample.hash = parts.count > 1 ? parts[1] : ""
                if !tracks.isEmpty { tracks[tracks.count - 1].append(sample) }
                current = nil
            }
        }
        return tracks
    }

    /// Java's `Arrays.hashCode(byte[])`, printed as ExoPlayer's dumper prints it.
    static func javaHash(_ bytes: some Sequence<UInt8>) -> String {
        var hash: Int32 = 1
        for byte in bytes { hash = hash &* 31 &+ Int32(Int8(bitPattern: byte)) }
        return String(UInt32(bitPattern: hash), radix: 16, uppercase: true)
    }

    /// A sample with 4-byte length prefixes, the prefixes replaced by start codes.
    static func annexB(_ sample: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(sample)
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = Int(bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            bytes.replaceSubrange(offset..<(offset + 4), with: [0, 0, 0, 1])
            offset += 4 + length
        }
        return bytes
    }

    @Test("every sample: presentation time (µs), key flag, size and bytes as ExoPlayer dumps them")
    func samplesEqualTheDump() throws {
        let expected = try Self.dump()
        let file = try MP4File(contentsOf: MediaFiles.url("encoded/sample.mp4").path)
        #expect(file.tracks.count == expected.count)
        #expect(file.tracks.map(\.sampleCount) == [30, 45])
        for (track, dumped) in zip(file.tracks, expected) {
            let ours = file.samples(of: track).map { sample in
                // ExoPlayer scales with integer division (Util.scaleLargeTimestamp), as here.
                // ExoPlayer hands video samples out in Annex B form: each 4-byte length prefix becomes 00 00 00 01.
                DumpedSample(time: sample.presentationTime * 1_000_000 / Int64(sample.timescale), isKey: sample.isKeyFrame,
                             size: sample.data.count,
                             hash: Self.javaHash(track.kind == .video ? Self.annexB(sample.data) : Array(sample.data)))
            }
            #expect(ours.count == dumped.count)
            // The audio track starts with an empty edit of 44 ms (movie timescale 1000), which ExoPlayer adds in
            // microseconds and we in the track's 1/44100 ticks (1940.4 → 1940): times agree within that one tick.
            let tick = 1_000_000 / Int64(track.timescale) + 1
            for (index, (mine, theirs)) in zip(ours, dumped).enumerated() {
                var rounded = mine
                if abs(mine.time - theirs.time) <= tick { rounded.time = theirs.time }
                #expect(rounded == theirs, "track \(track.index) sample \(index)")
            }
        }
        if case let .video(format) = file.tracks[0].format {
            #expect(format.width == 1080 && format.height == 720)
            // ExoPlayer dumps the parameter sets with their 4-byte start code.
            #expect(format.parameterSets.map { $0.count + 4 } == [29, 10])
        } else {
            Issue.record("track 0 is not video")
        }
        if case let .audio(format) = file.tracks[1].format {
            #expect(format.sampleRate == 44100 && format.channelCount == 1 && format.audioSpecificConfig.count == 2)
        } else {
            Issue.record("track 1 is not audio")
        }
    }
}

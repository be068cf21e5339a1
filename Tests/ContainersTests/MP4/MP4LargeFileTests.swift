import Containers
import Foundation
import Testing
import TestSupport

/// 64-bit boxes and offsets, and files cut off mid-fragment. ffmpeg's mov muxer switches to `co64` and a 64-bit
/// `mdat` only past 4 GB, so the test rewrites an ffmpeg file the way it would be written then: `stco` → `co64`
/// (the moov is at the end, so no sample moves) and the 8-byte `free` + 32-bit `mdat` header that ffmpeg leaves
/// for exactly this → one 16-byte `mdat` header with a `largesize`. ffprobe reads the result; so must we.
@Suite("MP4 reader: co64, largesize, truncation", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct MP4LargeFileTests {
    typealias S = MP4Synthesis

    /// Rebuilds the boxes in `bytes[range]`, descending into containers, with every `stco` as `co64`.
    static func widenChunkOffsets(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt8] {
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]
        var out: [UInt8] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(bytes[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let payload = (offset + 8)..<(offset + size)
            if containers.contains(type) {
                out += S.box(type, widenChunkOffsets(bytes, payload))
            } else if type == "stco" {
                let count = Int(bytes[(offset + 12)..<(offset + 16)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                var entries: [UInt8] = []
                for entry in 0..<count {
                    let at = offset + 16 + 4 * entry
                    entries += S.be64(UInt64(bytes[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
                }
                out += S.fullBox("co64", S.be32(UInt32(count)) + entries)
            } else {
                out += bytes[offset..<(offset + size)]
            }
            offset += size
        }
        return out
    }

    @Test("co64 and a 64-bit mdat: same samples as the 32-bit original, and as ffprobe reads them")
    func co64AndLargesize() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let variant = try #require(MP4TestFiles.variants.first { $0.name == "classic" })
        let path = try MP4TestFiles.make(variant, in: directory)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let moov = try #require(S.offset(of: "moov", in: original))
        let free = try #require(S.offset(of: "free", in: original))
        let mdat = try #require(S.offset(of: "mdat", in: original))
        try #require(free + 8 == mdat && mdat < moov, "ffmpeg's layout: free(8), mdat, moov")
        let mdatSize = Int(original[mdat..<(mdat + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        var patched = Array(original[..<free])
        patched += S.be32(1) + Array("mdat".utf8) + S.be64(UInt64(mdatSize + 8))
        patched += original[(mdat + 8)..<moov]
        patched += Self.widenChunkOffsets(original, moov..<original.count)
        #expect(S.offset(of: "co64", in: patched) != nil && S.offset(of: "stco", in: patched) == nil)
        let patchedPath = directory.appendingPathComponent("co64.mp4").path
        try Data(patched).write(to: URL(fileURLWithPath: patchedPath))

        let ours = try MP4File(contentsOf: patchedPath)
        let reference = try MP4File(contentsOf: path)
        #expect(ours.topLevelBoxes.first { $0.type == "mdat" }?.headerSize == 16)
        #expect(ours.tracks.count == reference.tracks.count)
        for (track, referenceTrack) in zip(ours.tracks, reference.tracks) {
            let samples = ours.samples(of: track), expected = reference.samples(of: referenceTrack)
            #expect(samples.count == expected.count)
            #expect(zip(samples, expected).allSatisfy { $0.offset == $1.offset && $0.data == $1.data && $0.pts == $1.pts })
            let packets = try MP4TestFiles.packets(patchedPath, stream: track.index)
            #expect(packets.map(\.position) == samples.map(\.offset))
            #expect(packets.map(\.size) == samples.map(\.data.count))
        }
    }

    @Test("a fragmented recording cut inside its last fragment keeps every earlier fragment")
    func truncatedFragmentedFile() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let variant = try #require(MP4TestFiles.variants.first { $0.name == "fragmented" })
        let path = try MP4TestFiles.make(variant, in: directory)
        let whole = try MP4File(contentsOf: path)
        let fragments = whole.topLevelBoxes.filter { $0.type == "moof" }
        let lastMoof = try #require(fragments.last)
        let lastMdat = try #require(whole.topLevelBoxes.first { $0.type == "mdat" && $0.offset > lastMoof.offset })
        let cut = Array(whole.bytes)[..<(lastMdat.offset + lastMdat.size / 2)]
        let file = try MP4File(bytes: Array(cut))
        #expect(file.isTruncated)
        #expect(!whole.isTruncated)
        for (track, wholeTrack) in zip(file.tracks, whole.tracks) {
            let kept = file.samples(of: track), all = whole.samples(of: wholeTrack)
            let beforeLastFragment = all.filter { $0.offset < lastMoof.offset }
            #expect(kept.count == beforeLastFragment.count)
            #expect(kept.count < all.count)
            #expect(zip(kept, all).allSatisfy { $0.data == $1.data && $0.dts == $1.dts })
        }
    }
}

import Containers
import Foundation
import Testing
import TestSupport

/// Hostile and broken files: each gets a typed ``MP4ReadError`` naming the box path and offset, never a trap,
/// and the reader allocates nothing a field merely claims.
@Suite("MP4 reader: hostile files")
struct MP4HostileFileTests {
    typealias S = MP4Synthesis

    private func error(_ bytes: [UInt8]) -> MP4ReadError? {
        do {
            _ = try MP4File(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("the skeleton itself reads: one track, three 4-byte samples at the mdat payload")
    func skeletonReads() throws {
        let file = try MP4File(bytes: S.file())
        #expect(file.tracks.count == 1)
        let samples = file.samples(of: file.tracks[0])
        #expect(samples.map(\.data.count) == [4, 4, 4])
        #expect(samples.map(\.offset) == [S.ftyp.count + 8, S.ftyp.count + 12, S.ftyp.count + 16])
        #expect(samples.map(\.decodeTime) == [0, 1000, 2000])
        #expect(samples.allSatisfy { $0.isKeyFrame })
        #expect(file.tracks[0].format == .unsupported(sampleEntry: "tx3g"))
        #expect(file.tracks[0].language == "und")
    }

    @Test("a box of size 0 inside moov: only top-level boxes may run to the end of the file")
    func sizeZeroInsideMoov() {
        let bytes = S.file(moovExtra: S.be32(0) + Array("junk".utf8) + [1, 2, 3, 4])
        guard case let .malformedBox(path, offset, reason) = error(bytes) else { Issue.record("no error"); return }
        #expect(path == "moov/junk")
        #expect(offset == bytes.count - 12)
        #expect(reason.contains("size 0"))
    }

    @Test("a box of size 1 whose largesize is 2^64 - 1, at the top level and inside moov")
    func largesizeOfTwoToTheSixtyFour() {
        let huge = S.be32(1) + Array("free".utf8) + S.be64(.max)
        guard case let .malformedBox(path, offset, reason) = error(huge + S.file()) else { Issue.record("no error"); return }
        #expect(path == "free")
        #expect(offset == 0)
        #expect(reason.contains("larger than its parent"))
        let inside = S.file(moovExtra: huge)
        guard case let .malformedBox(insidePath, insideOffset, _) = error(inside) else { Issue.record("no error"); return }
        #expect(insidePath == "moov/free")
        #expect(insideOffset == inside.count - 16)
    }

    @Test("a largesize below its own 16-byte header, and a 32-bit size of 2…7")
    func sizesBelowTheHeader() {
        let small = S.be32(1) + Array("free".utf8) + S.be64(8)
        guard case let .malformedBox(path, _, reason) = error(small + S.file()) else { Issue.record("no error"); return }
        #expect(path == "free")
        #expect(reason.contains("below the 16-byte header"))
        for size: UInt32 in [2, 7] {
            guard case let .malformedBox(_, offset, reason) = error(S.be32(size) + Array("free".utf8) + S.file()) else {
                Issue.record("size \(size): no error"); continue
            }
            #expect(offset == 0)
            #expect(reason.contains("below the 8-byte header"))
        }
    }

    @Test("a box larger than its parent")
    func boxLargerThanParent() {
        let bytes = S.file(edit: { table in
            table.stsz = S.be32(4000) + Array("stsz".utf8) + Array(table.stsz.dropFirst(8))
        })
        guard case let .malformedBox(path, _, reason) = error(bytes) else { Issue.record("no error"); return }
        #expect(path == "moov/trak[0]/mdia/minf/stbl/stsz")
        #expect(reason.contains("larger than its parent"))
    }

    @Test("stsz declaring 2^32 - 1 entries in a box of 12: refused before allocating, path and offset named")
    func stszWithFourBillionEntries() throws {
        let bytes = S.file(edit: { table in table.stsz = S.fullBox("stsz", S.be32(0) + S.be32(.max)) })
        guard case let .malformedBox(path, offset, reason) = error(bytes) else { Issue.record("no error"); return }
        #expect(path == "moov/trak[0]/mdia/minf/stbl/stsz")
        #expect(offset == (S.offset(of: "stsz", in: bytes) ?? -1) + 20)
        #expect(reason.contains("4294967295 entries"))
    }

    @Test("a chunk offset past the end of the file, and a sample running past it")
    func sampleOffsetsPastTheEnd() {
        let past = S.file(edit: { table in table.stco = S.fullBox("stco", S.be32(1) + S.be32(0x7FFF_0000)) })
        guard case let .malformedBox(path, offset, reason) = error(past) else { Issue.record("no error"); return }
        #expect(path == "moov/trak[0]/mdia/minf/stbl/stco")
        #expect(offset == (S.offset(of: "stco", in: past) ?? -1) + 16)
        #expect(reason.contains("past the end of the file"))
        let running = S.file(edit: { table in
            table.stsz = S.fullBox("stsz", S.be32(0) + S.be32(3) + S.be32(4) + S.be32(4) + S.be32(1 << 20))
        })
        guard case let .malformedBox(_, _, runningReason) = error(running) else { Issue.record("no error"); return }
        #expect(runningReason.contains("sample 2"))
    }

    @Test("udta/meta nested 40 deep: refused at the depth cap")
    func recursiveMetadata() {
        var nested: [UInt8] = []
        for level in 0..<40 { nested = level % 2 == 0 ? S.box("udta", nested) : S.fullBox("meta", nested) }
        guard case let .limitExceeded(path, _, limit) = error(S.file(moovExtra: nested)) else { Issue.record("no error"); return }
        #expect(path.hasPrefix("moov/meta/udta/meta/udta"))
        #expect(path.split(separator: "/").count == 17)
        #expect(limit.contains("nesting"))
    }

    @Test("65 tracks: refused at the track cap; 64 read")
    func tooManyTracks() throws {
        guard case let .limitExceeded(path, _, limit) = error(S.file(tracks: 65)) else { Issue.record("no error"); return }
        #expect(path == "moov/trak[64]")
        #expect(limit.contains("64 tracks"))
        #expect(try MP4File(bytes: S.file(tracks: 64)).tracks.count == 64)
    }

    @Test("no moov, and an empty file")
    func missingMovie() {
        #expect(error(S.ftyp) == .missingBox(path: "", box: "moov"))
        #expect(error([]) == .missingBox(path: "", box: "moov"))
    }

    @Test("a trun claiming 2^31 samples in its 100-odd bytes", .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func trunLyingAboutItsLength() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let variant = try #require(MP4TestFiles.variants.first { $0.name == "fragmented" })
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try MP4TestFiles.make(variant, in: directory))))
        let trun = try #require(S.offset(of: "trun", in: bytes))
        bytes.replaceSubrange((trun + 12)..<(trun + 16), with: S.be32(0x8000_0000))
        guard case let .malformedBox(path, _, reason) = error(bytes) else { Issue.record("no error"); return }
        #expect(path == "moof[0]/traf[0]/trun[0]")
        #expect(reason.contains("2147483648 entries"))
    }

    @Test("2 000 random corruptions of a real file: a file or an MP4ReadError, and every sample inside the file",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func randomCorruption() throws {
        let directory = try ExternalTool.temporaryDirectory()
        for name in ["classic", "fragmented"] {
            let variant = try #require(MP4TestFiles.variants.first { $0.name == name })
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try MP4TestFiles.make(variant, in: directory))))
            // Corrupt the boxes (moov, moof headers), not the media: that is where the parser looks.
            let moov = try #require(S.offset(of: "moov", in: original))
            let regions = name == "classic" ? [moov..<original.count] : [0..<min(original.count, 2400)]
            var random = SplitMix64(seed: name == "classic" ? 9 : 10)
            var opened = 0, outside = 0
            for _ in 0..<1000 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let region = regions[0]
                    let index = Int.random(in: region, using: &random)
                    bytes[index] = UInt8.random(in: 0...255, using: &random)
                }
                guard let file = try? MP4File(bytes: bytes) else { continue }
                opened += 1
                for sample in file.interleavedSamples() where sample.offset + sample.data.count > bytes.count {
                    outside += 1
                }
            }
            #expect(opened > 0)
            #expect(outside == 0)
        }
    }
}

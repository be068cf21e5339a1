import Bitstream
import Foundation
import NativeH264Decoder
import Testing
import TestSupport

/// Damaged input: slices dropped, NAL units cut short, bytes flipped. The decoder never crashes, still
/// outputs a picture for every picture that kept at least one slice, and reports what it concealed.
@Suite("Native H.264 decoder: damaged input", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct DamagedInputTests {
    /// An x264 Baseline stream of 30 pictures, 4 slices each, and its NAL units.
    static func slicedStream() throws -> [[UInt8]] {
        let path = try PeerStreamTests.x264Stream(size: "176x144", options: ["--slices", "4", "--ref", "3", "--keyint", "15"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
    }

    static func isSlice(_ nal: [UInt8]) -> Bool { nal.first.map { $0 & 0x1F == 1 || $0 & 0x1F == 5 } ?? false }

    static func annexB(_ units: [[UInt8]]) -> [UInt8] { units.flatMap { [0, 0, 0, 1] + $0 } }

    @Test("every 7th slice dropped: 30 pictures out, the lost macroblocks concealed and counted")
    func droppedSlices() throws {
        let units = try Self.slicedStream()
        var sliceIndex = 0
        let kept = units.filter { unit in
            guard Self.isSlice(unit) else { return true }
            sliceIndex += 1
            return sliceIndex % 7 != 3
        }
        let result = DecoderRun.decode(Self.annexB(kept), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 30)
        let concealed = result.frames.map(\.concealedMacroblocks).reduce(0, +)
        #expect(concealed > 0)
        #expect(result.frames.filter { $0.concealedMacroblocks > 0 }.count >= 30 * 4 / 7 - 1)
    }

    @Test("every 5th slice cut in half: 30 pictures out, each cut reported")
    func truncatedSlices() throws {
        let units = try Self.slicedStream()
        var sliceIndex = 0, cuts = 0
        let damaged = units.map { unit -> [UInt8] in
            guard Self.isSlice(unit) else { return unit }
            sliceIndex += 1
            guard sliceIndex % 5 == 2, unit.count > 40 else { return unit }
            cuts += 1
            return Array(unit.prefix(unit.count / 2))
        }
        let result = DecoderRun.decode(Self.annexB(damaged), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 30)
        let reported = result.frames.map(\.problems.count).reduce(0, +)
        #expect(cuts > 0 && reported >= cuts / 2, "\(cuts) cuts, \(reported) problems reported")
    }

    @Test("random bytes flipped in slice data: no crash, typed errors only", arguments: [1, 2, 3, 4])
    func flippedBytes(_ seed: UInt64) throws {
        let units = try Self.slicedStream()
        var generator = SplitMix64(seed: seed)
        let damaged = units.map { unit -> [UInt8] in
            guard Self.isSlice(unit), unit.count > 12 else { return unit }
            var copy = unit
            for _ in 0..<3 {
                let index = Int.random(in: 8..<copy.count, using: &generator)
                copy[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            return copy
        }
        let result = DecoderRun.decode(Self.annexB(damaged), stopOnError: false)
        #expect(result.frames.count > 0 && result.frames.count <= 40)
        #expect(result.frames.allSatisfy { $0.picture.width == 176 && $0.picture.height == 144 })
    }

    @Test("the IDR picture lost: the P pictures after it still come out, the missing reference reported")
    func lostKeyFrame() throws {
        let units = try Self.slicedStream()
        // The first picture's slices (the first run of IDR slice NAL units); the later IDR stays.
        let first = units.firstIndex { $0.first.map { $0 & 0x1F == 5 } ?? false } ?? 0
        let end = units[first...].firstIndex { $0.first.map { $0 & 0x1F != 5 } ?? true } ?? units.count
        let withoutIDR = Array(units[..<first] + units[end...])
        let result = DecoderRun.decode(Self.annexB(withoutIDR), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 29)
        #expect(result.frames.first.map { !$0.problems.isEmpty } ?? false)
    }

    /// An x264 Main-profile CAVLC stream of 24 pictures with B-pyramids and temporal direct prediction,
    /// 3 slices each, and its NAL units.
    static func bFrameStream() throws -> [[UInt8]] {
        let path = try BSliceStreamTests.x264MainStream(size: "176x144", options: [
            "--bframes", "3", "--b-pyramid", "normal", "--direct", "temporal", "--weightb", "--slices", "3", "--ref", "3", "--keyint", "12"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
    }

    /// Whether a NAL unit is a slice of a B picture (slice_type 1 or 6: the second ue(v) of the header).
    static func isBSlice(_ nal: [UInt8]) -> Bool {
        guard isSlice(nal), nal.count > 4 else { return false }
        var reader = SliceBits(Array(nal.dropFirst()))
        _ = reader.ue()
        return reader.ue() % 5 == 1
    }

    /// A tiny ue(v) reader for the first slice header fields (no emulation prevention in the first bytes of x264's headers).
    struct SliceBits {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        mutating func bit() -> Int {
            guard position / 8 < bytes.count else { return 1 }
            defer { position += 1 }
            return Int(bytes[position / 8] >> (7 - position % 8)) & 1
        }
        mutating func ue() -> Int {
            var zeros = 0
            while bit() == 0 && zeros < 31 { zeros += 1 }
            var value = 0
            for _ in 0..<zeros { value = value << 1 | bit() }
            return (1 << zeros) - 1 + value
        }
    }

    @Test("B slices dropped (every 4th) or cut in half (every 3rd): 24 pictures out, each loss concealed or reported")
    func damagedBSlices() throws {
        let units = try Self.bFrameStream()
        #expect(units.contains(where: Self.isBSlice))
        var index = 0, dropped = 0, cuts = 0
        var damaged: [[UInt8]] = []
        for unit in units {
            guard Self.isBSlice(unit) else { damaged.append(unit); continue }
            index += 1
            if index % 4 == 1 { dropped += 1; continue }
            if index % 3 == 0 && unit.count > 30 { cuts += 1; damaged.append(Array(unit.prefix(unit.count / 2))); continue }
            damaged.append(unit)
        }
        let result = DecoderRun.decode(Self.annexB(damaged), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 24)
        #expect(result.frames.map(\.concealedMacroblocks).reduce(0, +) > 0)
        #expect(result.frames.map(\.problems.count).reduce(0, +) >= cuts / 2, "\(cuts) cuts")
        #expect(dropped > 0 && cuts > 0)
    }

    @Test("a P picture lost before B pictures (their co-located picture): no crash, the B pictures come out, the loss reported")
    func lostColocatedPicture() throws {
        let units = try Self.bFrameStream()
        // The slices of the second P picture (nal_ref_idc ≠ 0, not IDR, not B), all of them.
        var pictures: [Int: [Int]] = [:], order: [Int] = []
        var picture = -1
        for (position, unit) in units.enumerated() where Self.isSlice(unit) {
            var reader = SliceBits(Array(unit.dropFirst()))
            if reader.ue() == 0 { picture += 1; order.append(picture) }
            let type = reader.ue() % 5
            if type == 0 && unit[0] & 0x1F == 1 { pictures[picture, default: []].append(position) }
        }
        let lost = pictures.keys.sorted().dropFirst().first
        #expect(lost != nil)
        let removed = Set(lost.flatMap { pictures[$0] } ?? [])
        let damaged = units.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        let result = DecoderRun.decode(Self.annexB(damaged), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 23)
        #expect(result.frames.contains { !$0.problems.isEmpty }, "the missing reference is reported")
    }

    @Test("random bytes flipped in B-frame slices: no crash, 176x144 pictures only", arguments: [5, 6, 7, 8])
    func flippedBytesInBFrames(_ seed: UInt64) throws {
        let units = try Self.bFrameStream()
        var generator = SplitMix64(seed: seed)
        let damaged = units.map { unit -> [UInt8] in
            guard Self.isSlice(unit), unit.count > 12 else { return unit }
            var copy = unit
            for _ in 0..<3 {
                let index = Int.random(in: 6..<copy.count, using: &generator)
                copy[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            return copy
        }
        let result = DecoderRun.decode(Self.annexB(damaged), stopOnError: false)
        #expect(result.frames.count > 0 && result.frames.count <= 32)
        #expect(result.frames.allSatisfy { $0.picture.width == 176 && $0.picture.height == 144 })
    }
}

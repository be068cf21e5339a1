import TestSupport
import Testing
@testable import Bitstream

/// The 64-bit-cache `BitReader` and `BitWriter`: every width 1...64, Exp-Golomb edge values, reads past
/// the end, and random sequences checked against a one-bit-at-a-time model.
@Suite struct BitIOTests {

    /// The value's low `count` bits as a string of "0"/"1", first bit most significant.
    private func bitString(_ value: UInt64, _ count: Int) -> String {
        String((0..<count).map { value >> UInt64(count - 1 - $0) & 1 == 1 ? "1" : "0" })
    }

    private func bytes(ofBits text: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (text.count + 7) / 8)
        for (index, character) in text.enumerated() where character == "1" { out[index / 8] |= 0x80 >> UInt8(index % 8) }
        return out
    }

    @Test(arguments: 1...64)
    func everyWidthRoundTrips(width: Int) throws {
        var generator = SplitMix64(seed: UInt64(width))
        let mask: UInt64 = width == 64 ? .max : (1 << UInt64(width)) - 1
        let values = [0, mask, mask >> 1, 1 << UInt64(width - 1)] + (0..<20).map { _ in generator.next() & mask }
        for misalignment in 0..<8 {
            var writer = BitWriter()
            writer.writeBits(0x55, count: misalignment)
            var model = bitString(0x55, misalignment)
            for value in values { writer.u64(width, value); model += bitString(value, width) }
            #expect(writer.bitCount == model.count)
            #expect(writer.bytes == bytes(ofBits: model), "width \(width), offset \(misalignment)")
            var reader = BitReader(writer.bytes)
            let skipped = reader.skipBits(misalignment)
            #expect(skipped)
            for value in values {
                #expect(reader.peekBits(width) == value)
                #expect(try reader.u64(width, "value") == value)
            }
            #expect(reader.bitsRemaining < 8)
        }
    }

    @Test func narrowFormReadsUpTo32BitsAndRejectsWiderReads() throws {
        var writer = BitWriter()
        writer.u(32, 0xDEAD_BEEF)
        writer.u64(40, 0xAB_CDEF_0123)
        var reader = BitReader(writer.bytes)
        #expect(try reader.u(32, "word") == 0xDEAD_BEEF)
        #expect(throws: SyntaxError(field: "pcr_base", bitOffset: 32, reason: .invalid("u(40) is not a read of 0...32 bits"))) {
            _ = try reader.u(40, "pcr_base")
        }
        #expect(reader.bitPosition == 32, "a rejected read does not move")
        #expect(try reader.u64(40, "pcr_base") == 0xAB_CDEF_0123)
        #expect(reader.readBits(65) == nil && reader.readBits(-1) == nil)
    }

    @Test func expGolombEdgeValues() throws {
        var writer = BitWriter()
        let unsigned: [UInt32] = [0, 1, 2, 1 << 16, (1 << 28) - 2, (1 << 28) - 1, 1 << 28, (1 << 29) - 1, UInt32.max - 1]
        let signed: [Int32] = [0, 1, -1, 1 << 27, -(1 << 27), Int32.max, Int32.min + 1, Int32.min]
        for value in unsigned { writer.ue(value) }
        for value in signed { writer.se(value) }
        writer.ue(UInt32.max)  // 2^32 − 1: a 65-bit code, beyond what ue(v) allows
        var reader = BitReader(writer.bytes)
        for value in unsigned { #expect(try reader.ue("u") == value) }
        for value in signed { #expect(try reader.se("s") == value) }
        let start = reader.bitPosition
        #expect(throws: SyntaxError(field: "big", bitOffset: start,
                                    reason: .outOfRange(value: Int64(UInt32.max), allowed: 0...Int64(UInt32.max - 1)))) {
            _ = try reader.ue("big")
        }
        #expect(reader.bitPosition == start + 65, "the code was read, then rejected")
        var again = BitReader(writer.bytes)
        #expect(again.skipBits(start) && again.readUnsignedExpGolomb() == UInt64(UInt32.max))
        // Code lengths follow Table 9-2: 2·⌊log2(v + 1)⌋ + 1 bits.
        var lengths = BitWriter()
        lengths.ue(UInt32.max - 1)
        #expect(lengths.bitCount == 63)
    }

    @Test func expGolombAcrossTheCacheBoundary() throws {
        // Codes of 29…32 leading zeros do not fit one 57-bit cache; place them at every bit offset.
        for zeros in 26...32 {
            for offset in 0..<8 {
                let value = (UInt64(1) << UInt64(zeros)) - 1 + 0x5A5A_5A5A & ((UInt64(1) << UInt64(zeros)) - 1)
                var writer = BitWriter()
                writer.writeBits(0, count: offset)
                writer.writeBits(0, count: zeros)
                writer.writeBits(value + 1, count: zeros + 1)
                var reader = BitReader(writer.bytes)
                reader.skipBits(offset)
                #expect(reader.readUnsignedExpGolomb() == value, "zeros \(zeros), offset \(offset)")
                #expect(reader.bitPosition == offset + 2 * zeros + 1)
            }
        }
    }

    @Test func readsPastTheEndAreNilAndTypedErrors() {
        var reader = BitReader([0b1010_0000, 0x00])
        #expect(reader.peekBits(17) == nil)
        #expect(reader.readBits(16) == 0xA000)
        #expect(reader.readBits(1) == nil)
        #expect(reader.readUnsignedExpGolomb() == nil && reader.readSignedExpGolomb() == nil)
        #expect(throws: SyntaxError(field: "slice_type", bitOffset: 16, reason: .endOfData)) { _ = try reader.ue("slice_type") }
        #expect(throws: SyntaxError(field: "flag", bitOffset: 16, reason: .endOfData)) { _ = try reader.flag("flag") }
        #expect(throws: SyntaxError(field: "wide", bitOffset: 16, reason: .endOfData)) { _ = try reader.u64(40, "wide") }

        var truncated = BitReader([0x00, 0x01])  // 15 zeros then a 1: the suffix is cut off
        #expect(truncated.readUnsignedExpGolomb() == nil && truncated.bitPosition == 0)
        #expect(throws: SyntaxError(field: "x", bitOffset: 0, reason: .endOfData)) { _ = try truncated.ue("x") }
        var overlong = BitReader([UInt8](repeating: 0, count: 5))  // 40 zeros
        #expect(throws: SyntaxError(field: "x", bitOffset: 0, reason: .expGolombOverflow)) { _ = try overlong.se("x") }
        var empty = BitReader([UInt8]())
        #expect(empty.peekBits(0) == 0 && empty.readBits(1) == nil && !empty.hasMoreRBSPData())
    }

    @Test func readerBorrowsItsInput() throws {
        let bytes: [UInt8] = [0x67, 0x42, 0xC0, 0x1E]
        let view = try #require(ByteView(bytes + [0xFF, 0xEE]).getView(at: 0, byteCount: 4))
        let fromView = BitReader(view)
        #expect(fromView.view.isSameMemory(as: view))
        let fromArray = BitReader(bytes)
        #expect(fromArray.view.withUnsafeBytes { $0.baseAddress } == bytes.withUnsafeBytes { $0.baseAddress })
        #expect(fromArray.bytes.withUnsafeBytes { $0.baseAddress } == bytes.withUnsafeBytes { $0.baseAddress })
        #expect(fromView.bytes == bytes)
    }

    /// Random sequences of u(n) (n in 1...64), ue and se: written with the cache, compared with a
    /// one-bit-at-a-time model, read back.
    @Test(arguments: [1, 2, 3, 4])
    func randomSequencesMatchTheBitModel(seed: UInt64) throws {
        enum Element { case u(Int, UInt64), ue(UInt32), se(Int32) }
        var generator = SplitMix64(seed: seed)
        var elements: [Element] = []
        var model = ""
        for _ in 0..<2_000 {
            switch generator.next() % 3 {
            case 0:
                let width = Int(generator.next() % 64) + 1
                let value = generator.next() & (width == 64 ? UInt64.max : (1 << UInt64(width)) - 1)
                elements.append(.u(width, value))
                model += bitString(value, width)
            case 1:
                let value = UInt32(truncatingIfNeeded: generator.next() >> (generator.next() % 64)) % UInt32.max
                elements.append(.ue(value))
                let code = UInt64(value) + 1
                let length = 64 - code.leadingZeroBitCount
                model += String(repeating: "0", count: length - 1) + bitString(code, length)
            default:
                let value = Int32(truncatingIfNeeded: Int64(bitPattern: generator.next()) >> Int64(generator.next() % 63))
                elements.append(.se(value))
                let code = value > 0 ? 2 * UInt64(value) - 1 : 2 * UInt64(-Int64(value))
                let length = 64 - (code + 1).leadingZeroBitCount
                model += String(repeating: "0", count: length - 1) + bitString(code + 1, length)
            }
        }
        var writer = BitWriter()
        for element in elements {
            switch element {
            case let .u(width, value): writer.u64(width, value)
            case let .ue(value): writer.ue(value)
            case let .se(value): writer.se(value)
            }
        }
        #expect(writer.bitCount == model.count)
        #expect(writer.bytes == bytes(ofBits: model))
        var reader = BitReader(writer.bytes)
        for element in elements {
            switch element {
            case let .u(width, value): #expect(try reader.u64(width, "u") == value)
            case let .ue(value): #expect(try reader.ue("ue") == value)
            case let .se(value): #expect(try reader.se("se") == value)
            }
        }
        #expect(reader.bitsRemaining == (8 - model.count % 8) % 8)
    }

    @Test func writerBytesAtEveryLength() {
        var writer = BitWriter()
        var model = ""
        for index in 0..<200 {
            writer.flag(index % 3 == 0)
            model += index % 3 == 0 ? "1" : "0"
            #expect(writer.bytes == bytes(ofBits: model))
        }
        writer.alignWithZeros()
        writer.writeBytes([0xAB, 0xCD])
        #expect(writer.bytes == bytes(ofBits: model) + [0xAB, 0xCD])
        #expect(writer.isByteAligned && writer.bitCount == writer.bytes.count * 8)
    }
}

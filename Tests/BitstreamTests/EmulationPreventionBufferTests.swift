import Testing
import Bitstream
import TestSupport

/// `EmulationPrevention.rbsp(fromEBSP:limit:into:)` and `checkedRBSP(fromEBSP:limit:into:)`: the same
/// RBSP (and the same error) as the allocating forms of a prefix of the input, written into a buffer
/// whose storage is reused.
@Suite struct EmulationPreventionBufferTests {
    // MARK: - Reference: the byte loop the allocating forms have always run

    /// The lenient conversion, written out byte by byte.
    static func referenceRBSP(_ ebsp: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        var zeros = 0
        for byte in ebsp {
            if zeros >= 2 && byte == 0x03 { zeros = 0; continue }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// The checked conversion, written out byte by byte: the RBSP, or the offset of the missing byte.
    static func referenceCheckedRBSP(_ ebsp: some Collection<UInt8>) -> Result<[UInt8], EmulationPrevention.Failure> {
        var out = [UInt8]()
        var zeros = 0
        for (offset, byte) in ebsp.enumerated() {
            if zeros >= 2 {
                if byte == 0x03 { zeros = 0; continue }
                if byte < 0x03 { return .failure(.missingEmulationPreventionByte(byteOffset: offset)) }
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return .success(out)
    }

    /// Runs the checked conversion into `buffer` and returns its outcome as a `Result`.
    static func checked(_ ebsp: some Collection<UInt8>, limit: Int, into buffer: inout [UInt8]) -> Result<[UInt8], EmulationPrevention.Failure> {
        do {
            try EmulationPrevention.checkedRBSP(fromEBSP: ebsp, limit: limit, into: &buffer)
            return .success(buffer)
        } catch {
            return .failure(error)
        }
    }

    /// The allocating checked conversion as a `Result`.
    static func allocatingChecked(_ ebsp: some Collection<UInt8>) -> Result<[UInt8], EmulationPrevention.Failure> {
        do {
            return .success(try EmulationPrevention.checkedRBSP(fromEBSP: ebsp))
        } catch {
            return .failure(error)
        }
    }

    /// Checks both buffer forms against the allocating forms and the reference for one input and limit,
    /// through a contiguous slice (with a non-zero start index) and a non-contiguous view of it.
    static func expectSameOutput(_ ebsp: [UInt8], limit: Int, buffer: inout [UInt8]) {
        let prefix = ebsp.prefix(limit)
        let expected = referenceRBSP(prefix)
        let expectedChecked = referenceCheckedRBSP(prefix)
        #expect(EmulationPrevention.rbsp(fromEBSP: prefix) == expected)
        #expect(allocatingChecked(prefix) == expectedChecked)

        EmulationPrevention.rbsp(fromEBSP: ebsp, limit: limit, into: &buffer)
        #expect(buffer == expected, "lenient, array, limit \(limit)")
        #expect(checked(ebsp, limit: limit, into: &buffer) == expectedChecked, "checked, array, limit \(limit)")

        let padded = [0xAA, 0x00] + ebsp
        let slice = padded[2...]
        EmulationPrevention.rbsp(fromEBSP: slice, limit: limit, into: &buffer)
        #expect(buffer == expected, "lenient, slice, limit \(limit)")
        #expect(checked(slice, limit: limit, into: &buffer) == expectedChecked, "checked, slice, limit \(limit)")

        let lazy = ebsp.lazy.map { $0 }  // not contiguous: takes the generic path
        EmulationPrevention.rbsp(fromEBSP: lazy, limit: limit, into: &buffer)
        #expect(buffer == expected, "lenient, lazy, limit \(limit)")
        #expect(checked(lazy, limit: limit, into: &buffer) == expectedChecked, "checked, lazy, limit \(limit)")
    }

    /// Limits to try on an input of `count` bytes: none, zero, inside, at and past the end.
    static func limits(for count: Int, using generator: inout some RandomNumberGenerator) -> [Int] {
        [.max, 0, 1, count, count + 1, Int.random(in: 0...max(count, 0), using: &generator), 64, 96]
    }

    // MARK: - Tests

    @Test func handWrittenPatterns() {
        let inputs: [[UInt8]] = [
            [], [0x00], [0x00, 0x00], [0x00, 0x00, 0x03], [0x00, 0x00, 0x03, 0x03], [0x00, 0x00, 0x00],
            [0x00, 0x00, 0x01], [0x00, 0x00, 0x02], [0x00, 0x00, 0x04], [0x00, 0x00, 0x03, 0x00, 0x00, 0x03],
            [0x00, 0x00, 0x00, 0x03], [0x03, 0x00, 0x03, 0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0x02],
            [0x65, 0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0xFF], [0x67, 0x42, 0x00, 0x00, 0x01, 0x10],
        ]
        var buffer = [UInt8]()
        var generator = SystemRandomNumberGenerator()
        for input in inputs {
            for limit in Self.limits(for: input.count, using: &generator) {
                Self.expectSameOutput(input, limit: limit, buffer: &buffer)
            }
        }
    }

    @Test func randomInputsMatchTheAllocatingForms() {
        var generator = SystemRandomNumberGenerator()
        var buffer = [UInt8]()  // one buffer for every input, as a stream parser keeps it
        for _ in 0..<500 {
            // Mostly zeros and 1…3 so that every escape pattern, and missing escapes, occur.
            let input = (0..<Int.random(in: 0...200, using: &generator)).map { _ -> UInt8 in
                switch UInt8.random(in: 0...9, using: &generator) {
                case 0...4: return 0
                case 5...7: return UInt8.random(in: 1...3, using: &generator)
                default: return UInt8.random(in: 0...255, using: &generator)
                }
            }
            for limit in Self.limits(for: input.count, using: &generator) {
                Self.expectSameOutput(input, limit: limit, buffer: &buffer)
            }
            // Escaped RBSPs convert back without error.
            let ebsp = EmulationPrevention.ebsp(fromRBSP: input)
            #expect(Self.checked(ebsp, limit: .max, into: &buffer) == .success(input))
        }
    }

    @Test(.requiresMedia, arguments: MediaFiles.h264Streams.filter { $0.hasPrefix("encoded/") } + MediaFiles.hevcStreams)
    func realNALUnitsMatchTheAllocatingForms(path: String) throws {
        let stream = try MediaFiles.bytes(path)
        let ranges = AnnexB.nalUnitRanges(in: stream)
        #expect(!ranges.isEmpty)
        var buffer = [UInt8]()
        for range in ranges {
            let nalUnit = Array(stream[range])
            for limit in [Int.max, 64, 96, 1] {
                Self.expectSameOutput(nalUnit, limit: limit, buffer: &buffer)
            }
        }
    }

    @Test func storageIsReusedOnceUniquelyReferenced() {
        var buffer = [UInt8]()
        let large = [UInt8](repeating: 0x55, count: 256)
        EmulationPrevention.rbsp(fromEBSP: large, into: &buffer)
        let capacity = buffer.capacity
        let storage = buffer.withUnsafeBufferPointer { $0.baseAddress }
        #expect(capacity >= 256)

        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let input = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...3, using: &generator) }
            EmulationPrevention.rbsp(fromEBSP: input, limit: 200, into: &buffer)
            _ = Self.checked(input, limit: 96, into: &buffer)
            #expect(buffer.capacity == capacity)
            #expect(buffer.withUnsafeBufferPointer { $0.baseAddress } == storage)
        }

        // A reader over the buffer shares it; once the reader is gone the storage is reused again.
        EmulationPrevention.rbsp(fromEBSP: [0x80], into: &buffer)
        do {
            var reader = BitReader(buffer)
            #expect(reader.readBits(1) == 1)
        }
        EmulationPrevention.rbsp(fromEBSP: [0x40], into: &buffer)
        #expect(buffer == [0x40])
        #expect(buffer.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    @Test func aCopyHeldElsewhereIsNotOverwritten() {
        var buffer = [UInt8]()
        EmulationPrevention.rbsp(fromEBSP: [0x01, 0x02, 0x03], into: &buffer)
        let kept = buffer
        EmulationPrevention.rbsp(fromEBSP: [0x00, 0x00, 0x03, 0x01], into: &buffer)
        #expect(kept == [0x01, 0x02, 0x03])
        #expect(buffer == [0x00, 0x00, 0x01])
    }

    @Test func aMissingByteIsReportedWithItsOffsetAndTheBytesBeforeIt() {
        var buffer: [UInt8] = [0xFF, 0xFF]
        #expect(throws: EmulationPrevention.Failure.missingEmulationPreventionByte(byteOffset: 4)) {
            try EmulationPrevention.checkedRBSP(fromEBSP: [0x67, 0x42, 0x00, 0x00, 0x01, 0x10], into: &buffer)
        }
        #expect(buffer == [0x67, 0x42, 0x00, 0x00])
        // Past the limit, the missing byte is not looked at.
        #expect(throws: Never.self) {
            try EmulationPrevention.checkedRBSP(fromEBSP: [0x67, 0x42, 0x00, 0x00, 0x01, 0x10], limit: 4, into: &buffer)
        }
        #expect(buffer == [0x67, 0x42, 0x00, 0x00])
    }
}

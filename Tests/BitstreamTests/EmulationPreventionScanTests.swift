@testable import Bitstream
import Testing
import TestSupport

/// The `memchr` scan of emulation-prevention removal (contiguous input) against the byte-at-a-time loop
/// (the same functions given a collection without contiguous storage), on inputs dense in zeros and 0x03.
@Suite struct EmulationPreventionScanTests {
    @Test(arguments: [7, 8, 9])
    func memchrScanEqualsTheByteLoop(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let alphabet: [UInt8] = [0, 0, 0, 0, 1, 2, 3, 3, 0x55]
        for length in 0..<600 {
            let bytes = (0..<(length % 97)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let loop = bytes.lazy.map { $0 }  // no contiguous storage: the byte loop
            #expect(bytes.lazy.map { $0 }.withContiguousStorageIfAvailable { _ in 0 } == nil)
            #expect(EmulationPrevention.rbsp(fromEBSP: bytes) == EmulationPrevention.rbsp(fromEBSP: loop), "\(bytes)")
            let limit = Int(generator.next() % 100)
            var fast: [UInt8] = []
            var slow: [UInt8] = []
            EmulationPrevention.rbsp(fromEBSP: bytes, limit: limit, into: &fast)
            EmulationPrevention.rbsp(fromEBSP: loop, limit: limit, into: &slow)
            #expect(fast == slow)
            let checkedFast = Result { () throws(EmulationPrevention.Failure) in try EmulationPrevention.checkedRBSP(fromEBSP: bytes) }
            let checkedSlow = Result { () throws(EmulationPrevention.Failure) in try EmulationPrevention.checkedRBSP(fromEBSP: loop) }
            #expect(checkedFast == checkedSlow, "\(bytes)")
            var partialFast: [UInt8] = []
            var partialSlow: [UInt8] = []
            let errorFast = Result { () throws(EmulationPrevention.Failure) in try EmulationPrevention.checkedRBSP(fromEBSP: bytes, limit: limit, into: &partialFast) }
            let errorSlow = Result { () throws(EmulationPrevention.Failure) in try EmulationPrevention.checkedRBSP(fromEBSP: loop, limit: limit, into: &partialSlow) }
            #expect(errorFast.map { 0 } == errorSlow.map { 0 } && partialFast == partialSlow, "\(bytes) limit \(limit)")
        }
    }
}

import Bitstream
@testable import NativeH264
import Testing

@Suite struct CAVLCResidualWriterTests {
    /// The worked example of a 4x4 block (rows 0 3 −1 0 / 0 −1 1 0 / 1 0 0 0 / 0 0 0 0, nC 0), coded by hand
    /// from Tables 9-5, 9-7 and 9-10: coeff_token 0000100 (TotalCoeff 5, TrailingOnes 3), signs 011,
    /// levels 1 and 0010, total_zeros 111, run_before 10 1 1 01.
    @Test func handCodedExample() {
        let scan: [Int32] = [0, 3, 0, 1, -1, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        var writer = BitWriter()
        let total = scan.withUnsafeBufferPointer { CAVLCResidualWriter.write($0.baseAddress!, count: 16, nC: 0, to: &writer) }
        #expect(total == 5)
        #expect(writer.bitCount == 24)
        #expect(writer.bytes == [0b0000_1000, 0b1110_0101, 0b1110_1101])
    }

    /// An empty block is coeff_token alone: 1 (nC 0), 11 (nC 2…3), 1111 (nC 4…7), 000011 (nC ≥ 8), 01 (chroma DC).
    @Test(arguments: [(0, 1, 0b1), (2, 2, 0b11), (5, 4, 0b1111), (9, 6, 0b000011), (-1, 2, 0b01)])
    func emptyBlock(nC: Int, bits: Int, value: Int) {
        let zeros = [Int32](repeating: 0, count: 16)
        var writer = BitWriter()
        zeros.withUnsafeBufferPointer { _ = CAVLCResidualWriter.write($0.baseAddress!, count: nC < 0 ? 4 : 16, nC: nC, to: &writer) }
        #expect(writer.bitCount == bits)
        var reader = BitReader(writer.bytes)
        #expect(reader.readBits(bits) == UInt64(value))
    }
}

// The reads a slice-header parser makes, as one protocol both readers conform to, so the same
// generic parse is specialised for the legacy and the current reader.
import Bitstream

/// The descriptor forms of a bit reader (the calls the H.264/H.265 parsers make).
protocol BitReading {
    mutating func u(_ count: Int, _ field: StaticString) throws(SyntaxError) -> UInt32
    mutating func flag(_ field: StaticString) throws(SyntaxError) -> Bool
    mutating func ue(_ field: StaticString, max: UInt32) throws(SyntaxError) -> UInt32
    mutating func se(_ field: StaticString, range: ClosedRange<Int32>) throws(SyntaxError) -> Int32
    var bitPosition: Int { get }
}

/// The writes of a bit writer.
protocol BitWriting {
    init()
    mutating func u(_ count: Int, _ value: UInt32)
    mutating func ue(_ value: UInt32)
    mutating func se(_ value: Int32)
    mutating func rbspTrailingBits()
    var bytes: [UInt8] { get }
}

extension BitReader: BitReading {}
extension LegacyBitReader: BitReading {}
extension BitWriter: BitWriting {}
extension LegacyBitWriter: BitWriting {}

// The writes of a bit writer, as one protocol both writers conform to, so the same generic write loop
// is specialised for the legacy and the current writer (non-throwing requirements inline fully; the
// readers' descriptor forms throw, and typed-throws witnesses are never inlined, so the reads are
// written out once per reader instead — see SliceHeaderWalk.swift).
import Bitstream

/// The descriptor forms of a bit writer.
protocol BitWriting {
    init()
    mutating func u(_ count: Int, _ value: UInt32)
    mutating func ue(_ value: UInt32)
    mutating func se(_ value: Int32)
    mutating func rbspTrailingBits()
    var bytes: [UInt8] { get }
}

extension BitWriter: BitWriting {}
extension LegacyBitWriter: BitWriting {}

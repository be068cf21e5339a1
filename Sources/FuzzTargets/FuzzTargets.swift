import Bitstream

/// What one fuzz input goes through: every parser of the bitstream layer, each of which must return or
/// throw a typed error — never trap, hang or read out of bounds.
public enum FuzzTargets {
    /// Feeds `input` to every parser.
    /// - Parameter input: arbitrary bytes.
    public static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        framing(bytes)
    }

    /// Annex B (whole and chunked), AVCC with every length size, emulation prevention, Exp-Golomb.
    static func framing(_ bytes: [UInt8]) {
        let ranges = AnnexB.nalUnitRanges(in: bytes)
        var scanner = AnnexBStreamScanner(maximumNALUnitSize: 4096)
        let split = bytes.count / 3
        var units = scanner.append(bytes[..<split])
        units += scanner.append(bytes[split...])
        if let last = scanner.finish() { units.append(last) }
        precondition(units.count <= ranges.count, "the chunked scanner found units the whole scan did not")
        for size in [1, 2, 4] { _ = try? AVCC.nalUnitRanges(in: bytes, lengthSize: size) }
        _ = try? AVCC.avcc(fromAnnexB: bytes, lengthSize: 2)
        for range in ranges.prefix(16) {
            let rbsp = EmulationPrevention.rbsp(fromEBSP: bytes[range])
            _ = try? EmulationPrevention.checkedRBSP(fromEBSP: bytes[range])
            var reader = BitReader(rbsp)
            while (try? reader.ue("x")) != nil, reader.bitsRemaining > 0 {}
            _ = reader.hasMoreRBSPData()
        }
    }
}

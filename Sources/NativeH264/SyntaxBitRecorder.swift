import Bitstream

/// Records the syntax elements written to it (§7.2 descriptors u(n), ue(v), se(v)) and counts their
/// bits like ``SyntaxBitCounter``, so that a mode decision's trial coding can be replayed into the
/// slice's ``BitWriter`` when it wins, instead of being coded a second time ("one pass per decision").
///
/// Its storage is allocated once (by ``MacroblockScratch``) and reused: ``reset()`` keeps the capacity,
/// so recording a macroblock makes no heap allocation once the buffer has grown to a macroblock's size.
struct SyntaxBitRecorder: SyntaxBitSink {
    /// The bits recorded so far, as a ``BitWriter`` would write them.
    private(set) var bitCount = 0
    /// One element a word: the descriptor in bits 62…63 (0 u(n), 1 ue(v), 2 se(v)), n in bits 32…37,
    /// the value (or its bit pattern) in bits 0…31.
    private var elements: [UInt64] = []

    /// Creates an empty recorder with room for `capacity` elements.
    /// - Parameter capacity: the elements it holds before it grows.
    init(capacity: Int = 1024) { elements.reserveCapacity(capacity) }

    /// Forgets what was recorded, keeping the storage.
    mutating func reset() {
        elements.removeAll(keepingCapacity: true)
        bitCount = 0
    }

    mutating func u(_ count: Int, _ value: UInt32) {
        bitCount &+= count
        elements.append(UInt64(count) << 32 | UInt64(value))
    }

    mutating func ue(_ value: UInt32) {
        bitCount &+= SyntaxBitCounter.golombBits(UInt64(value))
        elements.append(1 << 62 | UInt64(value))
    }

    mutating func se(_ value: Int32) {
        let wide = Int64(value)
        bitCount &+= SyntaxBitCounter.golombBits(UInt64(truncatingIfNeeded: wide > 0 ? 2 &* wide &- 1 : 0 &- 2 &* wide))
        elements.append(2 << 62 | UInt64(UInt32(bitPattern: value)))
    }

    /// Writes every recorded element, in order, through the same descriptors to `writer`: the bits are
    /// exactly those the trial coding would have written there.
    /// - Parameter writer: the slice data's writer (or any other sink).
    func replay<Sink: SyntaxBitSink>(into writer: inout Sink) {
        for element in elements {
            let value = UInt32(truncatingIfNeeded: element)
            switch element >> 62 {
            case 0: writer.u(Int(element >> 32 & 0x3F), value)
            case 1: writer.ue(value)
            default: writer.se(Int32(bitPattern: value))
            }
        }
    }
}

/// The CABAC arithmetic decoding engine of one slice (ITU-T H.264 §9.3.1.2, §9.3.3.2): codIRange and
/// codIOffset (9 bits each) over the slice's RBSP, and the context variables as one byte each,
/// `pStateIdx << 1 | valMPS`, in memory the decoder owns (no allocation per slice or bin).
///
/// codIOffset is kept in the top of a 64-bit window (bits 54…62) with the next bits of the slice data below it, so
/// that RenormD shifts the window instead of reading bits one by one; the window is refilled with whole bytes when
/// its read-ahead runs out (a few times per 50 bins). The bins are those of §9.3.3.2: the read-ahead bits below
/// codIOffset take no part in the comparisons.
///
/// Reading past the end of the data yields zero bits (the bit reader's padding); ``isOverrun`` tells it.
struct CABACDecoder {
    /// The slice data's first byte, followed by at least 8 readable bytes after its last.
    private var base: UnsafePointer<UInt8>
    /// Bits of slice data (without padding).
    private var bitCount: Int
    /// The next byte to load into the window.
    private var nextByte = 0
    /// Valid read-ahead bits below codIOffset in ``window`` (may go down to −7 between a shift and its refill).
    private var readAhead = 0
    /// codIOffset << 54, then the read-ahead bits (bits below them are zero or the stream's next bits).
    private var window: UInt64 = 0
    /// codIRange (§9.3.1.2), 256…510 between bins.
    private(set) var range: UInt32 = 510
    /// The context variables, one byte per ctxIdx: pStateIdx << 1 | valMPS.
    let states: UnsafeMutablePointer<UInt8>
    /// ``CABACEngineTables/packed``: rangeTabLPS (256 bytes), then the context byte after an MPS (128) and
    /// after an LPS (128), in memory the decoder owns (no global initialisation check per bin).
    let tables: UnsafePointer<UInt8>

    /// Where codIOffset sits in ``window``.
    private static let scale: UInt64 = 54

    /// Creates the engine over a reader; call ``initialiseContexts(sliceQP:cabacInitIDC:isIntraSlice:)``
    /// and ``initialiseEngine()`` before decoding.
    /// - Parameters:
    ///   - reader: the slice data reader, at the first bit after the slice header.
    ///   - states: storage for ``CABACContextTables/count`` context variables.
    ///   - tables: a copy of ``CABACEngineTables/packed``.
    init(reader: SliceBitReader, states: UnsafeMutablePointer<UInt8>, tables: UnsafePointer<UInt8>) {
        self.base = reader.base
        self.bitCount = reader.bitCount
        self.states = states
        self.tables = tables
        self.reader = reader
    }

    /// The slice data reader just past the last bit the engine consumed (codIOffset's last bit). Setting it moves
    /// the engine to the reader's position: call ``initialiseEngine()`` next.
    var reader: SliceBitReader {
        get { SliceBitReader(base: base, bitCount: bitCount, position: nextByte &* 8 &- readAhead) }
        set {
            base = newValue.base
            bitCount = newValue.bitCount
            nextByte = newValue.position >> 3
            readAhead = 0 &- (newValue.position & 7)
            window = 0
        }
    }

    /// Whether the engine read more than a few bits past the end of the slice data (a slice cut short).
    @inline(__always) var isOverrun: Bool { nextByte &* 8 &- readAhead > bitCount &+ 16 }

    /// The 8 bytes from `byte` on, big-endian (zeros past the end of the data).
    @inline(__always) private func load(_ byte: Int) -> UInt64 {
        if byte > bitCount >> 3 { return 0 }
        return UnsafeRawPointer(base + byte).loadUnaligned(as: UInt64.self).bigEndian
    }

    /// Puts the next whole bytes of the data below the read-ahead bits (`readAhead` ≥ −7).
    @inline(__always) private mutating func refill() {
        let shift = 10 &+ readAhead
        window |= load(nextByte) >> UInt64(shift)
        let bytes = (54 &- readAhead) >> 3
        nextByte &+= bytes
        readAhead &+= bytes &* 8
    }

    /// The initialisation of the context variables (§9.3.1.1, 9-5): preCtxState from (m, n) and SliceQPY.
    /// - Parameters:
    ///   - sliceQP: SliceQPY.
    ///   - cabacInitIDC: `cabac_init_idc` (0…2) for P slices.
    ///   - isIntraSlice: I (or SI) slice: the I column of the tables.
    mutating func initialiseContexts(sliceQP: Int, cabacInitIDC: Int, isIntraSlice: Bool) {
        let table: [Int8]
        if isIntraSlice {
            table = CABACContextTables.i
        } else {
            switch cabacInitIDC {
            case 0: table = CABACContextTables.p0
            case 1: table = CABACContextTables.p1
            default: table = CABACContextTables.p2
            }
        }
        let qp = min(max(sliceQP, 0), 51)
        table.withUnsafeBufferPointer { values in
            for ctx in 0..<CABACContextTables.count {
                let m = Int(values[2 * ctx]), n = Int(values[2 * ctx + 1])
                let pre = min(max(((m * qp) >> 4) + n, 1), 126)
                states[ctx] = pre <= 63 ? UInt8((63 - pre) << 1) : UInt8(((pre - 64) << 1) | 1)
            }
        }
    }

    /// The initialisation of the decoding engine (§9.3.1.2): codIRange 510, codIOffset the next 9 bits.
    /// - Returns: false when codIOffset is 510 or 511, which a conforming stream never has.
    mutating func initialiseEngine() -> Bool {
        range = 510
        window = 0
        refill()
        window <<= 9
        readAhead &-= 9
        return window >> Self.scale < 510
    }

    /// DecodeDecision (§9.3.3.2.1) with RenormD (§9.3.3.2.2): one bin with context `ctx`.
    /// - Parameter ctx: ctxIdx, 0 ..< ``CABACContextTables/count``.
    /// - Returns: the bin, 0 or 1.
    @inline(__always)
    mutating func decision(_ ctx: Int) -> Int {
        let state = Int(states[ctx])
        let lps = UInt32(tables[(state >> 1) << 2 | Int((range >> 6) & 3)])
        range &-= lps
        let scaledRange = UInt64(range) << Self.scale
        let bin: Int
        if window < scaledRange {
            bin = state & 1
            states[ctx] = tables[256 &+ state]
            if range >= 256 { return bin }
        } else {
            window &-= scaledRange
            range = lps
            bin = (state & 1) ^ 1
            states[ctx] = tables[384 &+ state]
        }
        // RenormD: codIRange back to 256 or more, the window shifted as many bits.
        let shift = range.leadingZeroBitCount &- 23
        range <<= UInt32(truncatingIfNeeded: shift)
        window <<= UInt64(truncatingIfNeeded: shift)
        readAhead &-= shift
        if readAhead < 0 { refill() }
        return bin
    }

    /// DecodeBypass (§9.3.3.2.3): one equiprobable bin.
    /// - Returns: the bin, 0 or 1.
    @inline(__always)
    mutating func bypass() -> Int {
        window <<= 1
        readAhead &-= 1
        if readAhead < 0 { refill() }
        let scaledRange = UInt64(range) << Self.scale
        if window >= scaledRange {
            window &-= scaledRange
            return 1
        }
        return 0
    }

    /// DecodeTerminate (§9.3.3.2.2.3): end_of_slice_flag and the I_PCM bin of mb_type. After a 1 the
    /// engine stops, its ``reader`` just past the last bit it consumed (for I_PCM, before the alignment bits).
    /// - Returns: the bin, 0 or 1.
    @inline(__always)
    mutating func terminate() -> Int {
        range &-= 2
        if window >= UInt64(range) << Self.scale { return 1 }
        if range < 256 {
            range <<= 1
            window <<= 1
            readAhead &-= 1
            if readAhead < 0 { refill() }
        }
        return 0
    }
}

/// The tables of the arithmetic decoding engine: rangeTabLPS (Table 9-44) and the state transitions
/// (Table 9-45) over the context byte `pStateIdx << 1 | valMPS` (valMPS switched on an LPS at pStateIdx 0).
enum CABACEngineTables {
    /// rangeTabLPS[pStateIdx][qCodIRangeIdx] (Table 9-44), flat: index pStateIdx * 4 + qCodIRangeIdx.
    static let rangeLPS: [UInt8] = [
        128, 176, 208, 240, 128, 167, 197, 227, 128, 158, 187, 216, 123, 150, 178, 205,
        116, 142, 169, 195, 111, 135, 160, 185, 105, 128, 152, 175, 100, 122, 144, 166,
        95, 116, 137, 158, 90, 110, 130, 150, 85, 104, 123, 142, 81, 99, 117, 135,
        77, 94, 111, 128, 73, 89, 105, 122, 69, 85, 100, 116, 66, 80, 95, 110,
        62, 76, 90, 104, 59, 72, 86, 99, 56, 69, 81, 94, 53, 65, 77, 89,
        51, 62, 73, 85, 48, 59, 69, 80, 46, 56, 66, 76, 43, 53, 63, 72,
        41, 50, 59, 69, 39, 48, 56, 65, 37, 45, 54, 62, 35, 43, 51, 59,
        33, 41, 48, 56, 32, 39, 46, 53, 30, 37, 43, 50, 29, 35, 41, 48,
        27, 33, 39, 45, 26, 31, 37, 43, 24, 30, 35, 41, 23, 28, 33, 39,
        22, 27, 32, 37, 21, 26, 30, 35, 20, 24, 29, 33, 19, 23, 27, 31,
        18, 22, 26, 30, 17, 21, 25, 28, 16, 20, 23, 27, 15, 19, 22, 25,
        14, 18, 21, 24, 14, 17, 20, 23, 13, 16, 19, 22, 12, 15, 18, 21,
        12, 14, 17, 20, 11, 14, 16, 19, 11, 13, 15, 18, 10, 12, 15, 17,
        10, 12, 14, 16, 9, 11, 13, 15, 9, 11, 12, 14, 8, 10, 12, 14,
        8, 9, 11, 13, 7, 9, 11, 12, 7, 9, 10, 12, 7, 8, 10, 11,
        6, 8, 9, 11, 6, 7, 9, 10, 6, 7, 8, 9, 2, 2, 2, 2,
    ]

    /// transIdxLPS (Table 9-45).
    static let transIdxLPS: [UInt8] = [
        0, 0, 1, 2, 2, 4, 4, 5, 6, 7, 8, 9, 9, 11, 11, 12, 13, 13, 15, 15, 16, 16, 18, 18, 19, 19, 21, 21, 22, 22, 23, 24,
        24, 25, 26, 26, 27, 27, 28, 29, 29, 30, 30, 30, 31, 32, 32, 33, 33, 33, 34, 34, 35, 35, 35, 36, 36, 36, 37, 37, 37, 38, 38, 63,
    ]

    /// The context byte after an MPS: pStateIdx + 1 up to 62 (transIdxMPS, Table 9-45; 63 stays).
    static let nextMPS: [UInt8] = (0..<128).map { state in
        let p = state >> 1
        let next = p == 63 ? 63 : min(p + 1, 62)
        return UInt8(next << 1 | (state & 1))
    }

    /// rangeLPS, nextMPS and nextLPS one after the other (512 bytes), what ``CABACDecoder`` reads.
    static var packed: [UInt8] { rangeLPS + nextMPS + nextLPS }

    /// The context byte after an LPS: transIdxLPS, valMPS switched at pStateIdx 0 (§9.3.3.2.1.1).
    static let nextLPS: [UInt8] = (0..<128).map { state in
        let p = state >> 1
        let mps = p == 0 ? (state & 1) ^ 1 : state & 1
        return UInt8(Int(transIdxLPS[p]) << 1 | mps)
    }
}

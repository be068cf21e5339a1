// streamkit-benchmark bits: the legacy (bit-at-a-time) and the current (64-bit cache) bit reader and
// writer, on real slice headers and on a long stream of random u(n)/ue/se, against a memcpy floor.
import Bitstream
import Foundation
import H264

/// One slice of the input, ready to be parsed.
struct BenchmarkSlice {
    /// The NAL unit (header byte included), a view into the input.
    var nalUnit: ByteView
    /// The first bytes of the payload after the NAL unit header (EBSP), a view into the input.
    var payload: ByteView
    /// The RBSP of `payload`.
    var rbsp: [UInt8]
    /// SPS/PPS values the parse needs.
    var context: SliceHeaderContext
}

/// Payload bytes unescaped per slice: as many as H264SliceHeader's fast path (every header of the input fits).
let slicePrefixBytes = 128

/// Finds the slices of `file` and checks that the benchmark's parse agrees with H264SliceHeader on each.
func loadSlices(_ file: [UInt8]) -> (slices: [BenchmarkSlice], parameterSets: H264ParameterSets) {
    var parameterSets = H264ParameterSets()
    var slices: [BenchmarkSlice] = []
    for unit in AnnexB.nalUnits(in: ByteView(file)) {
        let type = unit[0] & 0x1F
        if type == 7 || type == 8 { _ = try? parameterSets.process(nalUnit: unit); continue }
        guard type == 1 || type == 5, let header = try? H264SliceHeader(nalUnit: unit, parameterSets: parameterSets),
              let pps = parameterSets.pictureParameterSet(id: header.picParameterSetID),
              let sps = parameterSets.sequenceParameterSet(id: pps.seqParameterSetID),
              let payload = unit.getView(at: 1, byteCount: min(slicePrefixBytes, unit.count - 1)) else { continue }
        let slice = BenchmarkSlice(nalUnit: unit, payload: payload, rbsp: EmulationPrevention.rbsp(fromEBSP: payload),
                                   context: SliceHeaderContext(nalUnitHeaderByte: unit[0], sps: sps, pps: pps))
        var current = BitReader(slice.rbsp)
        var legacy = LegacyBitReader(slice.rbsp)
        let ours = try? walkSliceHeader(&current, slice.context)
        let theirs = try? walkSliceHeader(&legacy, slice.context)
        guard let ours, let theirs, ours == theirs, ours.bits == header.bitCount, ours.qpDelta == header.sliceQPDelta else {
            fail("slice \(slices.count): the benchmark's parse disagrees with H264SliceHeader (\(String(describing: ours)), \(String(describing: theirs)), \(header.bitCount) bits)")
        }
        slices.append(slice)
    }
    return (slices, parameterSets)
}

/// Slice headers of an H.264 stream, legacy vs current reader, in one process.
func benchmarkSliceHeaders(file: [UInt8], path: String, megabytes: Int, rounds: Int) {
    let (slices, parameterSets) = loadSlices(file)
    guard !slices.isEmpty else { fail("\(path) holds no H.264 slice this benchmark can parse") }
    let repeats = max(1, (megabytes << 20) / file.count)
    let total = slices.count * repeats
    print("(times: best of \(rounds) rounds, CPU time of the benchmark thread)")
    print("slice headers: \(slices.count) slices × \(repeats) = \(total) (\(path), as if \(repeats * file.count >> 20) MB)")

    let legacyRBSP = best(rounds, clock: threadCPUTime) { sink &+= parseRBSPsWithLegacyReader(slices, repeats: repeats) }
    let currentRBSP = best(rounds, clock: threadCPUTime) { sink &+= parseRBSPsWithReader(slices, repeats: repeats) }
    let legacyNAL = best(rounds, clock: threadCPUTime) { sink &+= parseNALUnitsWithLegacyReader(slices, repeats: repeats) }
    let currentNAL = best(rounds, clock: threadCPUTime) { sink &+= parseNALUnitsWithReader(slices, repeats: repeats) }
    let viewNAL = best(rounds, clock: threadCPUTime) { sink &+= parseNALUnitViewsWithReader(slices, repeats: repeats) }
    var scratch: [UInt8] = []
    let parser = best(rounds, clock: threadCPUTime) {
        for _ in 0..<repeats {
            for slice in slices {
                if let header = try? H264SliceHeader(nalUnit: slice.nalUnit, parameterSets: parameterSets, scratch: &scratch) {
                    sink &+= header.bitCount
                }
            }
        }
    }
    let perSlice = { (seconds: Double) in seconds / Double(total) * 1e9 }
    func line(_ name: String, _ seconds: Double) {
        print(String(format: "  %@ %9.2f ms  %7.1f ns/slice", name.padding(toLength: 48, withPad: " ", startingAt: 0), seconds * 1e3, perSlice(seconds)))
    }
    line("RBSP ready, legacy BitReader:", legacyRBSP)
    line("RBSP ready, BitReader (64-bit cache):", currentRBSP)
    line("from the NAL unit (unescape + parse), legacy:", legacyNAL)
    line("from the NAL unit (unescape + parse), current:", currentNAL)
    line("from the NAL unit as a ByteView (no copy if no EPB):", viewNAL)
    line("H264SliceHeader(nalUnit:scratch:) (the library):", parser)
    print(String(format: "  ratio legacy / current, reads only:          %.2fx faster", legacyRBSP / currentRBSP))
    print(String(format: "  ratio legacy / current, from the NAL unit:   %.2fx faster", legacyNAL / currentNAL))
    print(String(format: "  ratio legacy / current view, from the NAL:   %.2fx faster", legacyNAL / viewNAL))
}

/// A long stream of random u(n) (n in 1...32), ue and se: written and read with the legacy and the
/// current writer/reader, against a memcpy of the written bytes.
func benchmarkBitStream(elementCount: Int, rounds: Int) {
    // Kinds 0: u(n), 1: ue, 2: se; Exp-Golomb values mostly small, as in real syntax, sometimes up to 2^31.
    // (`let` arrays: captured `var`s would be boxed and checked for exclusive access on every element.)
    let (kinds, widths, values) = randomElements(count: elementCount)
    func writeAll<Writer: BitWriting>(_: Writer.Type) -> [UInt8] {
        var writer = Writer()
        for index in 0..<elementCount {
            switch kinds[index] {
            case 0: writer.u(Int(widths[index]), UInt32(truncatingIfNeeded: values[index]))
            case 1: writer.ue(UInt32(truncatingIfNeeded: values[index]))
            default: writer.se(Int32(truncatingIfNeeded: Int64(bitPattern: values[index])))
            }
        }
        writer.rbspTrailingBits()
        return writer.bytes
    }
    let written = writeAll(BitWriter.self)
    guard written == writeAll(LegacyBitWriter.self) else { fail("the legacy and current writers disagree") }
    var expected = 0
    for index in 0..<elementCount {
        expected &+= kinds[index] == 2 ? Int(Int32(truncatingIfNeeded: Int64(bitPattern: values[index]))) : Int(values[index])
    }
    var check = BitReader(written)
    var legacyCheck = LegacyBitReader(written)
    guard readAll(&check, kinds, widths) == expected, readAll(&legacyCheck, kinds, widths) == expected else { fail("a reader does not read back what was written") }

    let legacyWrite = best(rounds, clock: threadCPUTime) { sink &+= writeAll(LegacyBitWriter.self).count }
    let currentWrite = best(rounds, clock: threadCPUTime) { sink &+= writeAll(BitWriter.self).count }
    let legacyRead = best(rounds, clock: threadCPUTime) { var reader = LegacyBitReader(written); sink &+= readAll(&reader, kinds, widths) }
    let currentRead = best(rounds, clock: threadCPUTime) { var reader = BitReader(written); sink &+= readAll(&reader, kinds, widths) }
    let copy = best(max(rounds, 20), clock: threadCPUTime) {
        let output = [UInt8](unsafeUninitializedCapacity: written.count) { buffer, count in
            written.withUnsafeBytes { source in
                if let destination = buffer.baseAddress, let from = source.baseAddress { memcpy(destination, from, source.count) }
            }
            count = written.count
        }
        sink &+= Int(output[output.count / 2])
    }
    print(String(format: "random u(n)/ue/se: %d elements, %.1f MB written", elementCount, Double(written.count) / 1e6))
    func line(_ name: String, _ seconds: Double) {
        print(String(format: "  %@ %9.2f ms  %6.2f ns/element  %7.0f MB/s", name.padding(toLength: 26, withPad: " ", startingAt: 0),
                     seconds * 1e3, seconds / Double(elementCount) * 1e9, Double(written.count) / seconds / 1e6))
    }
    line("write, legacy BitWriter:", legacyWrite)
    line("write, BitWriter:", currentWrite)
    line("read, legacy BitReader:", legacyRead)
    line("read, BitReader:", currentRead)
    line("memcpy of the output:", copy)
    print(String(format: "  ratio legacy / current write: %.2fx faster", legacyWrite / currentWrite))
    print(String(format: "  ratio legacy / current read:  %.2fx faster", legacyRead / currentRead))
    print(String(format: "  ratio current write / memcpy: %.1fx the time of a plain copy", currentWrite / copy))
    print(String(format: "  ratio current read / memcpy:  %.1fx the time of a plain copy", currentRead / copy))
}

/// Random elements for ``benchmarkBitStream(elementCount:rounds:)``: kinds (0 `u(n)`, 1 `ue`, 2 `se`),
/// widths of the `u(n)`s, and values.
func randomElements(count: Int) -> (kinds: [UInt8], widths: [UInt8], values: [UInt64]) {
    var state: UInt64 = 0x5EED
    func random() -> UInt64 {  // SplitMix64
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    var kinds = [UInt8](repeating: 0, count: count)
    var widths = [UInt8](repeating: 0, count: count)
    var values = [UInt64](repeating: 0, count: count)
    for index in 0..<count {
        let kind = UInt8(random() % 3)
        kinds[index] = kind
        let width = Int(random() % 32) + 1
        widths[index] = UInt8(width)
        let bits = random()
        switch kind {
        case 0: values[index] = bits & ((1 << UInt64(width)) - 1)
        case 1: values[index] = (bits & 0x7FFF_FFFF) >> (random() % 31)
        default: values[index] = UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: bits)) >> Int64(random() % 31))
        }
    }
    return (kinds, widths, values)
}

// The timed loops, one concrete function per reader: called with a concrete type, the generic parse is
// specialised and every read is a direct, inlined call, as in the library's own parsers. (Generic
// closures that capture the reader type keep the protocol witness calls indirect.)

/// Parses every slice header from its ready RBSP with the legacy reader.
@inline(never)
func parseRBSPsWithLegacyReader(_ slices: [BenchmarkSlice], repeats: Int) -> Int {
    var total = 0
    for _ in 0..<repeats {
        for index in slices.indices {
            var reader = LegacyBitReader(slices[index].rbsp)
            if let parsed = try? walkSliceHeader(&reader, slices[index].context) { total &+= parsed.bits &+ Int(parsed.qpDelta) }
        }
    }
    return total
}

/// Parses every slice header from its ready RBSP with the current reader.
@inline(never)
func parseRBSPsWithReader(_ slices: [BenchmarkSlice], repeats: Int) -> Int {
    var total = 0
    for _ in 0..<repeats {
        for index in slices.indices {
            var reader = BitReader(slices[index].rbsp)
            if let parsed = try? walkSliceHeader(&reader, slices[index].context) { total &+= parsed.bits &+ Int(parsed.qpDelta) }
        }
    }
    return total
}

/// Unescapes the start of every slice NAL unit into a reused buffer, then parses it with the legacy reader.
@inline(never)
func parseNALUnitsWithLegacyReader(_ slices: [BenchmarkSlice], repeats: Int) -> Int {
    var total = 0
    var scratch: [UInt8] = []
    for _ in 0..<repeats {
        for index in slices.indices {
            EmulationPrevention.rbsp(fromEBSP: slices[index].payload, into: &scratch)
            var reader = LegacyBitReader(scratch)
            if let parsed = try? walkSliceHeader(&reader, slices[index].context) { total &+= parsed.bits &+ Int(parsed.qpDelta) }
        }
    }
    return total
}

/// Unescapes the start of every slice NAL unit into a reused buffer, then parses it with the current reader.
@inline(never)
func parseNALUnitsWithReader(_ slices: [BenchmarkSlice], repeats: Int) -> Int {
    var total = 0
    var scratch: [UInt8] = []
    for _ in 0..<repeats {
        for index in slices.indices {
            EmulationPrevention.rbsp(fromEBSP: slices[index].payload, into: &scratch)
            var reader = BitReader(scratch)
            if let parsed = try? walkSliceHeader(&reader, slices[index].context) { total &+= parsed.bits &+ Int(parsed.qpDelta) }
        }
    }
    return total
}

/// Reads every slice header straight from its NAL unit view (a copy only when the header bytes hold an
/// emulation-prevention byte) with the current reader.
@inline(never)
func parseNALUnitViewsWithReader(_ slices: [BenchmarkSlice], repeats: Int) -> Int {
    var total = 0
    for _ in 0..<repeats {
        for index in slices.indices {
            var reader = BitReader(EmulationPrevention.rbsp(fromEBSP: slices[index].payload))
            if let parsed = try? walkSliceHeader(&reader, slices[index].context) { total &+= parsed.bits &+ Int(parsed.qpDelta) }
        }
    }
    return total
}

/// Reads back the random elements (kinds 0 `u(n)`, 1 `ue`, 2 `se`) and sums them.
@inline(__always)
func readAll(_ reader: inout BitReader, _ kinds: [UInt8], _ widths: [UInt8]) -> Int {
    var sum = 0
    for index in kinds.indices {
        switch kinds[index] {
        case 0: sum &+= Int((try? reader.u(Int(widths[index]), "u")) ?? 0)
        case 1: sum &+= Int((try? reader.ue("ue", max: .max - 1)) ?? 0)
        default: sum &+= Int((try? reader.se("se", range: Int32.min...Int32.max)) ?? 0)
        }
    }
    return sum
}

/// The same reads with the legacy reader (identical text).
/// Reads back the random elements (kinds 0 `u(n)`, 1 `ue`, 2 `se`) and sums them.
@inline(__always)
func readAll(_ reader: inout LegacyBitReader, _ kinds: [UInt8], _ widths: [UInt8]) -> Int {
    var sum = 0
    for index in kinds.indices {
        switch kinds[index] {
        case 0: sum &+= Int((try? reader.u(Int(widths[index]), "u")) ?? 0)
        case 1: sum &+= Int((try? reader.ue("ue", max: .max - 1)) ?? 0)
        default: sum &+= Int((try? reader.se("se", range: Int32.min...Int32.max)) ?? 0)
        }
    }
    return sum
}

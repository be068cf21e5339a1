import Bitstream
import Dispatch
import H264

extension NativeH264Encoder {
    /// Codes the macroblocks of one picture as the slices of ``sliceLayout`` (§7.3.3, §7.3.4), each
    /// slice header a copy of `header` with its own first_mb_in_slice, and returns the slice NAL units
    /// (§7.3.1, without start codes) in decoding order. `coder` ends up holding the whole picture's
    /// reconstruction (not yet deblocked) and the state the deblocking filter reads.
    ///
    /// ``SliceLayout/count(_:)`` slices are coded on up to ``threadCount`` threads; the output is the
    /// same as on one thread, because a slice's decisions read only the source, the reference picture
    /// and the macroblocks of that slice (availability, §6.4.8).
    func encodeSlices(_ coder: inout SliceCoder, header: H264SliceHeader) -> [[UInt8]] {
        let total = widthInMbs * heightInMbs
        switch sliceLayout {
        case .single:
            return [encodeSlice(0..<total, with: &coder, header: header)]
        case let .count(requested):
            let count = min(requested, total)
            let slices = (0..<count).map { (($0 * total) / count)..<((($0 + 1) * total) / count) }
            let workers = min(threadCount, count)
            if workers == 1 { return slices.map { encodeSlice($0, with: &coder, header: header) } }
            return encodeInParallel(slices, workers: workers, coder: &coder, header: header)
        case let .maximumBytes(limit):
            return encodeSlices(ofAtMost: limit, with: &coder, header: header)
        }
    }

    /// One slice: its header, slice_data( ) of `addresses`, rbsp_slice_trailing_bits( ), as a NAL unit.
    func encodeSlice(_ addresses: Range<Int>, with coder: inout SliceCoder, header: H264SliceHeader) -> [UInt8] {
        var writer = BitWriter(reservingCapacity: addresses.count * 64 + 16)
        writeHeader(header, firstMacroblock: addresses.lowerBound, to: &writer)
        coder.encodeMacroblocks(addresses, to: &writer)
        writer.rbspTrailingBits()
        return Self.nalUnit(header, rbsp: writer.bytes)
    }

    /// The slice header with first_mb_in_slice set (§7.3.3). disable_deblocking_filter_idc stays 0:
    /// the filter runs across slice edges too (§7.4.3, §8.7).
    func writeHeader(_ header: H264SliceHeader, firstMacroblock: Int, to writer: inout BitWriter) {
        var header = header
        header.firstMbInSlice = UInt32(firstMacroblock)
        header.disableDeblockingFilterIDC = 0
        header.write(to: &writer, sequenceParameterSet: sequenceParameterSet, pictureParameterSet: pictureParameterSet)
    }

    /// nal_unit( ) (§7.3.1): forbidden_zero_bit 0, nal_ref_idc and nal_unit_type of the header, then the EBSP.
    static func nalUnit(_ header: H264SliceHeader, rbsp: [UInt8]) -> [UInt8] {
        [UInt8(header.nalUnitHeader.nalRefIDC << 5) | header.nalUnitHeader.nalUnitType.rawValue] + EmulationPrevention.ebsp(fromRBSP: rbsp)
    }

    /// ``SliceLayout/maximumBytes(_:)``: macroblocks go into the current slice while its NAL unit, as
    /// it would end after them (pending mb_skip_run, trailing bits, emulation prevention), stays within
    /// `limit` bytes. The macroblock that would push it over is undone (bit writer and the coder's
    /// neighbour state, ``MacroblockSnapshot``) and coded again as the first of a new slice, where its
    /// neighbours outside the slice are no longer available and its decisions may differ.
    func encodeSlices(ofAtMost limit: Int, with coder: inout SliceCoder, header: H264SliceHeader) -> [[UInt8]] {
        let total = widthInMbs * heightInMbs
        var units = [[UInt8]]()
        var snapshot = MacroblockSnapshot()
        var address = 0
        while address < total {
            var writer = BitWriter(reservingCapacity: limit + 64)
            writeHeader(header, firstMacroblock: address, to: &writer)
            coder.startSlice(at: address)
            let first = address
            while address < total {
                let before = writer
                coder.save(macroblock: address, into: &snapshot)
                coder.encodeMacroblock(at: address, to: &writer)
                if address > first && Self.nalUnitSize(writer, pendingSkipRun: coder.skipRun) > limit {
                    writer = before
                    coder.restore(macroblock: address, from: snapshot)
                    break
                }
                address += 1
            }
            coder.endSlice(to: &writer)
            writer.rbspTrailingBits()
            units.append(Self.nalUnit(header, rbsp: writer.bytes))
        }
        return units
    }

    /// The size of the slice NAL unit `writer` would make if the slice ended now: one header byte plus
    /// the EBSP of the RBSP with the pending mb_skip_run and the trailing bits.
    static func nalUnitSize(_ writer: BitWriter, pendingSkipRun: Int) -> Int {
        var ended = writer
        if pendingSkipRun > 0 { ended.ue(UInt32(pendingSkipRun)) }
        ended.rbspTrailingBits()
        var zeros = 0, size = 1
        for byte in ended.bytes {
            // §7.4.1: emulation_prevention_three_byte after two zero bytes followed by 0x00…0x03.
            if zeros >= 2 && byte <= 3 { size += 1; zeros = 0 }
            size += 1
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return size
    }
}

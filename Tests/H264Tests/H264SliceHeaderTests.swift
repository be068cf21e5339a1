import Bitstream
import H264
import TestSupport
import Testing

/// Slice headers: every slice of the shared media parses, and writing the header back gives the
/// exact bits it was read from.
@Suite("Slice headers")
struct H264SliceHeaderTests {
    @Test("every slice header writes back bit-identical", .requiresMedia, arguments: MediaFiles.h264Streams)
    func roundTrip(path: String) throws {
        let stream = try MediaFiles.bytes(path)
        var sets = H264ParameterSets()
        var slices = 0
        var mismatches: [String] = []
        for nal in AnnexB.nalUnitRanges(in: stream).map({ stream[$0] }) {
            let header = try H264NALUnitHeader(parsing: nal)
            switch header.nalUnitType {
            case .sequenceParameterSet, .pictureParameterSet:
                try sets.process(nalUnit: nal)
            case .nonIDRSlice, .idrSlice, .sliceDataPartitionA:
                let slice = try H264SliceHeader(nalUnit: nal, parameterSets: sets)
                let pps = try #require(sets.pictureParameterSet(id: slice.picParameterSetID))
                let sps = try #require(sets.sequenceParameterSet(id: pps.seqParameterSetID))
                var writer = BitWriter()
                slice.write(to: &writer, sequenceParameterSet: sps, pictureParameterSet: pps)
                let rbsp = EmulationPrevention.rbsp(fromEBSP: nal.dropFirst())
                var original = BitReader(rbsp)
                var written = BitReader(writer.bytes)
                let sameBits = original.readBits(min(slice.bitCount, 64)) == written.readBits(min(slice.bitCount, 64))
                    && Self.sameBits(&original, &written, count: slice.bitCount - min(slice.bitCount, 64))
                if writer.bitCount != slice.bitCount || !sameBits {
                    mismatches.append("slice \(slices): wrote \(writer.bitCount) bits for a \(slice.bitCount)-bit header")
                }
                slices += 1
            default:
                continue
            }
        }
        #expect(slices > 0)
        #expect(mismatches.isEmpty, "\(path): \(mismatches.count) slice headers differ, first: \(mismatches.first ?? "")")
    }

    private static func sameBits(_ first: inout BitReader, _ second: inout BitReader, count: Int) -> Bool {
        var left = count
        while left > 0 {
            let take = min(left, 32)
            guard let a = first.readBits(take), let b = second.readBits(take), a == b else { return false }
            left -= take
        }
        return true
    }

    @Test("a slice whose PPS was never received is an error naming the id", .requiresMedia)
    func unknownPictureParameterSet() throws {
        let stream = try MediaFiles.bytes("h264-conformance/jvt-avc-v1/BA_MW_D.264")
        let slice = try #require(AnnexB.nalUnitRanges(in: stream).map { stream[$0] }.first { $0.first.map { $0 & 0x1F == 5 } ?? false })
        #expect(throws: H264Error.unknownPictureParameterSet(id: 0, referencedBy: .idrSlice)) {
            try H264SliceHeader(nalUnit: slice, parameterSets: H264ParameterSets())
        }
    }

    @Test("slice_type maps onto I/P/B/SP/SI and records whether it is 5 or more")
    func sliceTypes() {
        // Table 7-6 of ITU-T H.264.
        let expected: [H264SliceType] = [.p, .b, .i, .sp, .si, .p, .b, .i, .sp, .si]
        for (value, type) in expected.enumerated() {
            #expect(H264SliceType(sliceType: UInt32(value)) == type)
        }
        #expect(H264SliceType(sliceType: 10) == nil)
    }
}

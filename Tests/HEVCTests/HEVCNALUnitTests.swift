import Foundation
import Testing
import Bitstream
import HEVC
import TestSupport

/// NAL unit types (Table 7-1) and the NAL unit header (§7.3.1.2).
struct HEVCNALUnitTests {
    @Test("all 64 types are named and classified as Table 7-1 says")
    func typeTable() {
        #expect(HEVCNALUnitType.allCases.count == 64)
        #expect(Set(HEVCNALUnitType.allCases.map(\.description)).count == 64)
        for value in UInt8(0)...63 {
            let type = HEVCNALUnitType(sixBits: value)
            #expect(type.rawValue == value)
            // Expectations straight from ITU-T H.265 Table 7-1 and §7.4.2.2.
            #expect(type.isVCL == (value <= 31))
            #expect(type.isIRAP == (16...23).contains(value))
            #expect(type.isIDR == (value == 19 || value == 20))
            #expect(type.isBLA == (16...18).contains(value))
            #expect(type.isCRA == (value == 21))
            #expect(type.isRASL == (value == 8 || value == 9))
            #expect(type.isRADL == (value == 6 || value == 7))
            #expect(type.isSubLayerNonReference == [0, 2, 4, 6, 8, 10, 12, 14].contains(value))
        }
        // Mnemonics of Table 7-1.
        #expect(HEVCNALUnitType.trailN.description == "TRAIL_N")
        #expect(HEVCNALUnitType(sixBits: 9).description == "RASL_R")
        #expect(HEVCNALUnitType(sixBits: 17).description == "BLA_W_RADL")
        #expect(HEVCNALUnitType(sixBits: 21).description == "CRA_NUT")
        #expect(HEVCNALUnitType(sixBits: 22).description == "RSV_IRAP_VCL22")
        #expect(HEVCNALUnitType(sixBits: 11).description == "RSV_VCL_R11")
        #expect(HEVCNALUnitType(sixBits: 32).description == "VPS_NUT")
        #expect(HEVCNALUnitType(sixBits: 35).description == "AUD_NUT")
        #expect(HEVCNALUnitType(sixBits: 40).description == "SUFFIX_SEI_NUT")
        #expect(HEVCNALUnitType(sixBits: 47).description == "RSV_NVCL47")
        #expect(HEVCNALUnitType(sixBits: 49).description == "UNSPEC49")
    }

    @Test("header fields: bytes 0x40 0x01 are a VPS of layer 0, TemporalId 0 (§7.3.1.2)")
    func headerFields() throws {
        let vps = try HEVCNALUnitHeader(parsing: [0x40, 0x01])
        #expect(vps.type == .vps && vps.layerID == 0 && vps.temporalID == 0)
        // 0x03 0x5A: type 1, nuh_layer_id = (1 << 5) | (0x5A >> 3) = 43, temporal_id_plus1 = 2.
        let slice = try HEVCNALUnitHeader(parsing: [0x03, 0x5A, 0xFF])
        #expect(slice.type == .trailR && slice.layerID == 43 && slice.temporalIDPlus1 == 2)
        #expect(slice.bytes == [0x03, 0x5A])
        var writer = BitWriter()
        slice.write(to: &writer)
        #expect(writer.bytes == [0x03, 0x5A])
    }

    @Test("header errors: temporal id 0, forbidden bit, truncation")
    func headerErrors() {
        #expect(throws: HEVCError.zeroTemporalIDPlus1(nalUnitType: .sps)) { try HEVCNALUnitHeader(parsing: [0x42, 0x00]) }
        #expect(throws: HEVCError.forbiddenZeroBitSet(nalUnitType: .vps)) { try HEVCNALUnitHeader(parsing: [0xC0, 0x01]) }
        #expect(throws: HEVCError.truncatedNALUnitHeader(byteCount: 1)) { try HEVCNALUnitHeader(parsing: [0x40]) }
        #expect(HEVCError.zeroTemporalIDPlus1(nalUnitType: .sps).description.contains("nuh_temporal_id_plus1"))
    }

    @Test("headers of every NAL unit equal ffmpeg's trace", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func headersMatchTrace() throws {
        let stream = try Streams.generated("x265-open-gop-cra")
        let trace = try TraceHeaders.traceText(["-v", "trace", "-i", stream.path, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        // Lines like "nal_unit_type: 21(CRA_NUT), nuh_layer_id: 0, temporal_id: 0", after the first packet.
        var theirs = [[Int]]()
        var inPackets = false
        for line in trace.split(separator: "\n") {
            if line.contains("] Packet:") { inPackets = true }
            guard inPackets, let range = line.range(of: "nal_unit_type: ") else { continue }
            let numbers = line[range.upperBound...].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if numbers.count >= 3 { theirs.append([numbers[0], numbers[1], numbers[2]]) }
        }
        let bytes = try stream.bytes()
        let ours = try AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }.map { unit in
            let header = try HEVCNALUnitHeader(parsing: unit)
            return [Int(header.type.rawValue), Int(header.layerID), header.temporalID]
        }
        #expect(ours == theirs)
        #expect(ours.contains { $0[0] == 21 })   // the open-GOP stream has CRA pictures
    }
}

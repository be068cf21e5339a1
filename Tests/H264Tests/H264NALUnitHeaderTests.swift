import H264
import Testing

/// The NAL unit header and type table (ITU-T H.264 §7.3.1, Table 7-1).
@Suite("NAL unit header")
struct H264NALUnitHeaderTests {
    @Test("every header byte without the forbidden bit parses and writes back")
    func roundTrip() throws {
        for byte in UInt8(0)...0x7F {
            let bytes = [byte, 0, 0, 0]
            let header = try H264NALUnitHeader(parsing: bytes)
            #expect(header.byte == byte)
            #expect(header.nalRefIDC == byte >> 5)
            #expect(header.nalUnitType.rawValue == byte & 0x1F)
        }
    }

    @Test("Table 7-1: VCL types, header lengths and names")
    func typeTable() {
        #expect(H264NALUnitType.allCases.count == 32)
        #expect(H264NALUnitType.allCases.filter(\.isVCL).map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect(H264NALUnitType.allCases.filter { $0.headerLength == 4 }.map(\.rawValue) == [14, 20, 21])
        let names: [UInt8: String] = [1: "non-IDR slice", 5: "IDR slice", 6: "SEI", 7: "SPS", 8: "PPS", 9: "AUD",
                                      10: "end of sequence", 12: "filler", 13: "SPS extension", 14: "prefix NAL",
                                      15: "subset SPS", 19: "auxiliary slice", 20: "slice extension",
                                      17: "reserved (17)", 0: "unspecified (0)", 31: "unspecified (31)"]
        for (value, name) in names {
            #expect(H264NALUnitType(headerByte: value).name == name)
        }
    }
}

import Foundation
import Testing
import Bitstream
import HEVC
import TestSupport

/// Access units (§7.4.2.4.4), slice headers (§7.3.6.1) and picture order counts (§8.3.1) against
/// ffmpeg: its HEVC parser cuts the stream into one packet per access unit, and ffprobe reports
/// frame counts and picture types in output order.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct HEVCAccessUnitTests {
    /// A coded picture as we see it: the NAL units of its access unit and its first slice header.
    struct Picture {
        var startCodeOffset = 0
        var types: [Int] = []
        var slice: HEVCSliceSegmentHeader?
        var order: HEVCPictureOrderCounter.Picture?
    }

    /// Splits a stream into access units and derives slice types and POCs.
    static func pictures(of file: String) throws -> [Picture] {
        var detector = HEVCAccessUnitDetector()
        var parameterSets = HEVCParameterSets()
        var counter = HEVCPictureOrderCounter()
        var pictures = [Picture]()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        for range in AnnexB.nalUnitRanges(in: bytes) {
            let unit = Array(bytes[range])
            if try detector.startsNewAccessUnit(unit) {
                // Where ffmpeg's parser cuts: at the 3-byte start code 00 00 01 (a zero_byte before it stays
                // with the previous packet); the first packet starts at the beginning of the file.
                pictures.append(Picture(startCodeOffset: pictures.isEmpty ? 0 : range.lowerBound - 3))
            }
            let header = try HEVCNALUnitHeader(parsing: unit)
            pictures[pictures.count - 1].types.append(Int(header.type.rawValue))
            if try parameterSets.insert(nalUnit: unit) != nil { continue }
            if header.type == .endOfSequence { counter.endOfSequence() }
            guard header.type.isVCL else { continue }
            let slice = try HEVCSliceSegmentHeader(nalUnit: unit, parameterSets: parameterSets)
            guard slice.firstSliceSegmentInPicFlag else { continue }
            let sps = try parameterSets.activeParameterSets(pictureParameterSetID: slice.slicePicParameterSetID).sps
            pictures[pictures.count - 1].slice = slice
            pictures[pictures.count - 1].order = counter.picture(for: slice, sps: sps)
        }
        return pictures
    }

    static let streamNames = HEVCParameterSetTests.streamNames

    @Test("access units start where ffmpeg's packets do; their count is ffprobe's frame count", .requiresMedia, arguments: streamNames)
    func accessUnits(name: String) throws {
        let stream = try HEVCParameterSetTests.stream(named: name)
        let pictures = try Self.pictures(of: stream.path)
        let probe = try Oracle.videoStream(of: stream.path, countingFrames: true)
        let frames = Int(probe["nb_read_frames"] as? String ?? "")
        #expect(pictures.count == frames)
        #expect(pictures.allSatisfy { $0.slice != nil })
        // ffmpeg's HEVC parser emits one packet per access unit: each packet must start where one of ours does.
        let json = try Oracle.probe(["-select_streams", "v:0", "-show_entries", "packet=pos"], file: stream.path)
        let positions = ((json["packets"] as? [[String: Any]]) ?? []).compactMap { ($0["pos"] as? String).flatMap { Int($0) } }
        #expect(pictures.map(\.startCodeOffset) == positions)
    }

    @Test("slice types in display order equal ffprobe's pict_type", .requiresMedia,
          arguments: ["x265-bframes", "x265-open-gop-cra", "encoded/cars_320x240.h265", "rtp/wilson_raw.h265"])
    func displayOrder(name: String) throws {
        let stream = try HEVCParameterSetTests.stream(named: name)
        let pictures = try Self.pictures(of: stream.path)
        // Output order: sort by POC within each coded video sequence; RASL pictures of a CVS start are never output.
        var sequences = [[(poc: Int, type: String)]]()
        for picture in pictures {
            let order = try #require(picture.order)
            let type = try #require(picture.slice?.sliceType)
            if order.startsCodedVideoSequence || sequences.isEmpty { sequences.append([]) }
            if order.isSkippedRASL || picture.slice?.picOutputFlag == false { continue }
            sequences[sequences.count - 1].append((order.pictureOrderCount, type.description))
        }
        let ours = sequences.flatMap { $0.sorted { $0.poc < $1.poc }.map(\.type) }
        let theirs = try Oracle.pictureTypes(of: stream.path)
        #expect(ours == theirs)
        if name == "x265-bframes" { #expect(ours.contains("B")) }
    }

    @Test("a slice names a PPS that was never sent: the error names the id")
    func unknownParameterSets() throws {
        let bytes = try Streams.generated("x265-bframes").bytes()
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        let slice = try #require(units.first { $0[0] >> 1 == 20 })   // IDR_N_LP
        #expect(throws: HEVCError.unknownPictureParameterSet(id: 0)) {
            try HEVCSliceSegmentHeader(nalUnit: slice, parameterSets: HEVCParameterSets())
        }
        var onlyPPS = HEVCParameterSets()
        try onlyPPS.insert(nalUnit: try #require(units.first { $0[0] >> 1 == 34 }))
        #expect(throws: HEVCError.unknownSequenceParameterSet(id: 0)) {
            try HEVCSliceSegmentHeader(nalUnit: slice, parameterSets: onlyPPS)
        }
        #expect(HEVCError.unknownPictureParameterSet(id: 0).description.contains("picture parameter set 0"))
    }

    @Test("AU boundaries of §7.4.2.4.4 on hand-made headers")
    func boundaryRules() {
        var detector = HEVCAccessUnitDetector()
        func starts(_ type: HEVCNALUnitType, first: Bool = false, layer: UInt8 = 0) -> Bool {
            detector.startsNewAccessUnit(header: HEVCNALUnitHeader(type: type, layerID: layer), firstSliceSegmentInPicFlag: first)
        }
        #expect(starts(.accessUnitDelimiter))             // first NAL unit of the stream
        #expect(!starts(.vps))
        #expect(!starts(.idrWRADL, first: true))          // the AUD already started this AU
        #expect(!starts(.idrWRADL, first: false))         // second slice segment
        #expect(!starts(.suffixSEI))                      // suffix SEI stays with the picture
        #expect(starts(.prefixSEI))                       // prefix SEI after VCL: next AU
        #expect(!starts(.trailR, first: true))
        #expect(starts(.trailR, first: true))             // no non-VCL between pictures
        #expect(!starts(.endOfSequence))                  // EOS ends the current AU
        #expect(starts(.reservedNVCL41))                  // 41…44 start an AU
        #expect(!starts(.craNUT, first: true))
        #expect(!starts(.reservedNVCL45))                 // 45…47 do not
        #expect(starts(.unspecified48))                   // 48…55 do
        #expect(!starts(.trailR, first: true))
        #expect(!starts(.unspecified56))                  // 56…63 do not
        #expect(!starts(.trailR, first: true, layer: 1))  // a picture of another layer joins the AU
    }
}

/// Picture order counts on hand-made headers, with expectations worked from §8.3.1 (equation 8-1).
struct HEVCPictureOrderCounterTests {
    static func header(_ type: HEVCNALUnitType, lsb: Int, temporalID: UInt8 = 0) -> HEVCSliceSegmentHeader {
        HEVCSliceSegmentHeader(nalUnitHeader: HEVCNALUnitHeader(type: type, temporalIDPlus1: temporalID + 1),
                               sliceType: type.isIRAP ? .i : .p, slicePicOrderCntLsb: lsb)
    }

    @Test("PicOrderCntMsb wraps with MaxPicOrderCntLsb 16 and resets at IRAPs with NoRaslOutputFlag")
    func wrapAndReset() {
        var sps = HEVCSequenceParameterSet()
        sps.log2MaxPicOrderCntLsbMinus4 = 0   // MaxPicOrderCntLsb = 16
        var counter = HEVCPictureOrderCounter()
        func poc(_ type: HEVCNALUnitType, _ lsb: Int, tid: UInt8 = 0) -> Int {
            counter.picture(for: Self.header(type, lsb: lsb, temporalID: tid), sps: sps).pictureOrderCount
        }
        #expect(poc(.idrWRADL, 0) == 0)
        #expect(poc(.trailR, 8) == 8)
        #expect(poc(.trailR, 15) == 15)
        #expect(poc(.trailR, 2) == 18)          // 2 < 15 and 15 − 2 ≥ 8: Msb += 16
        #expect(poc(.trailN, 9, tid: 1) == 25)   // TemporalId 1: not a prevTid0Pic
        #expect(poc(.trailR, 6) == 22)          // still relative to lsb 2 / msb 16
        #expect(poc(.trailR, 13) == 29)         // 13 − 6 = 7 ≤ 8: same Msb
        #expect(poc(.trailR, 1) == 33)          // 13 − 1 ≥ 8: Msb 32
        #expect(poc(.trailR, 14) == 30)         // 14 > 1 and 14 − 1 > 8: Msb −= 16 → 16 + 14
        // A CRA in the middle of the stream keeps counting; after an end of sequence it restarts at its lsb.
        let cra = counter.picture(for: Self.header(.craNUT, lsb: 4), sps: sps)
        #expect(cra.pictureOrderCount == 36 && !cra.startsCodedVideoSequence)
        counter.endOfSequence()
        let restart = counter.picture(for: Self.header(.craNUT, lsb: 4), sps: sps)
        #expect(restart.pictureOrderCount == 4 && restart.startsCodedVideoSequence)
        let rasl = counter.picture(for: Self.header(.raslN, lsb: 2), sps: sps)
        #expect(rasl.isSkippedRASL && rasl.pictureOrderCount == 2)
        #expect(poc(.blaWLP, 9) == 9)
    }
}

import Foundation
import H264
import TestSupport
import Testing

/// Access units and picture order counts against ffmpeg's decoder.
@Suite("Access units and picture order", .enabled(if: ExternalTool.isRunnable("ffprobe")))
struct H264AccessUnitTests {
    /// Checks that sorting the pictures by picture order count gives the order in which ffmpeg's
    /// decoder outputs them (its `coded_picture_number` lists the decoding index of each output frame).
    static func expectDisplayOrderMatchesFFprobe(units: [DetectedAccessUnit], path: String) throws {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                        "frame=coded_picture_number", "-of", "csv=p=0", path])
        let decodedOrder = output.text.split(whereSeparator: \.isNewline)
            .compactMap { Int($0.split(separator: ",").first ?? "") }
        let pictures = units.compactMap(\.picture)
        #expect(pictures.allSatisfy { $0.structure == .frame }, "frame-coded stream expected")
        #expect(H264TestSupport.displayOrder(of: pictures) == decodedOrder, "\(path): display order")
    }

    @Test("display order from picture order counts equals ffmpeg's output order", .requiresMedia, arguments: [
        "encoded/cars_320x240.h264",                                   // x264 B-frames, POC type 0
        "h264-conformance/jvt-frext/HCAFR1_HHI.264",                   // CABAC B-frames
        "h264-conformance/jvt-frext/FRExt3_Panasonic.avc",             // temporal direct B
        "h264-conformance/openh264-extra/Cisco_Men_whisper_640x320_CAVLC_Bframe_9.264",
        "h264-conformance/jvt-avc-v1/MR1_BT_A.h264",                   // POC type 1
        "h264-conformance/jvt-avc-v1/MR2_TANDBERG_E.264",              // MMCO 5, POC type 2
        "h264-conformance/jvt-avc-v1/MR2_MW_A.264",                    // POC type 0 with MMCOs
    ])
    func displayOrder(path: String) throws {
        let units = try H264TestSupport.accessUnits(in: try MediaFiles.bytes(path))
        try Self.expectDisplayOrderMatchesFFprobe(units: units, path: MediaFiles.url(path).path)
    }

    @Test("field-coded streams: field pairs make ffmpeg's frames, in ffmpeg's output order", .requiresMedia, arguments: [
        "h264-conformance/jvt-frext/HCAFF1_HHI.264",       // PAFF
        "h264-conformance/jvt-frext/FRExt2_Panasonic.avc", // PAFF + MBAFF
        "h264-conformance/jvt-frext/FRExt4_Panasonic.avc",
    ])
    func fieldPairs(path: String) async throws {
        let units = try H264TestSupport.accessUnits(in: try MediaFiles.bytes(path))
        let pictures = units.compactMap(\.picture)
        #expect(pictures.count == units.count)
        #expect(pictures.contains { $0.structure.isField })
        // Each field has only its own order count.
        #expect(pictures.allSatisfy { ($0.structure == .bottomField) == ($0.pictureOrderCount.topFieldOrderCount == nil) })
        #expect(pictures.allSatisfy { ($0.structure == .topField) == ($0.pictureOrderCount.bottomFieldOrderCount == nil) })
        // Pair fields as §3.30/§3.31 define complementary field pairs: two consecutive fields of
        // opposite parity with the same frame_num, the second not an IDR picture. A frame's order
        // count is the smaller of its fields' (8-1).
        var frames: [(count: Int, resets: Bool)] = []
        var index = 0
        while index < pictures.count {
            let picture = pictures[index]
            var count = picture.pictureOrderCount.value
            if picture.structure.isField, index + 1 < pictures.count {
                let next = pictures[index + 1]
                if next.structure.isField, next.structure != picture.structure, next.frameNum == picture.frameNum, !next.isIDR {
                    count = min(count, next.pictureOrderCount.value)
                    index += 1
                }
            }
            frames.append((count, picture.resetsPictureOrder))
            index += 1
        }
        let file = MediaFiles.url(path).path
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                        "frame=coded_picture_number", "-of", "csv=p=0", file])
        let decodedOrder = output.text.split(whereSeparator: \.isNewline)
            .compactMap { Int($0.split(separator: ",").first ?? "") }
        #expect(frames.count == decodedOrder.count, "\(path): frames")
        #expect(H264TestSupport.displayOrder(of: frames) == decodedOrder, "\(path): display order")
    }
}

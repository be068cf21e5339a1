import Foundation
import H264
import Testing
import TestSupport

/// ``H264FieldOrder`` against ffprobe's `field_order` (`progressive`, `tt`, `bb`): every H.264 stream
/// of the shared media (progressive, PAFF field pictures, MBAFF frames) and x264 interlaced encodes
/// with the top and with the bottom field first.
@Suite("Field order", .enabled(if: ExternalTool.isRunnable("ffprobe")))
struct H264FieldOrderTests {
    static func probedFieldOrder(_ path: String) throws -> String {
        try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=field_order",
                                           "-of", "csv=p=0", path]).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func name(of order: H264FieldOrder?) -> String {
        switch order {
        case .progressive: return "progressive"
        case .topFieldFirst: return "tt"
        case .bottomFieldFirst: return "bb"
        case nil: return "none"
        }
    }

    @Test("the field order of each shared stream is ffprobe's", .requiresMedia, arguments: MediaFiles.h264Streams)
    func sharedStream(path: String) throws {
        let order = H264FieldOrder.of(annexBStream: Array(try MediaFiles.bytes(path).prefix(1 << 20)))
        #expect(Self.name(of: order) == (try Self.probedFieldOrder(MediaFiles.url(path).path)))
    }

    @Test("x264 interlaced: pic_struct decides (x264 --tff codes the bottom field's order count lower)",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: [("tff=1", H264FieldOrder.topFieldFirst), ("bff=1", .bottomFieldFirst), ("fake-interlaced=1", .topFieldFirst)])
    func x264Interlaced(parameters: String, expected: H264FieldOrder) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("i.264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "6",
                                          "-pix_fmt", "yuv420p", "-c:v", "libx264", "-flags", "+ildct+ilme", "-x264-params", parameters, path])
        let order = H264FieldOrder.of(annexBStream: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(Self.name(of: order) == (try Self.probedFieldOrder(path)))
        #expect(order == expected)
    }
}

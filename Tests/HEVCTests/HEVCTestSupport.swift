import Foundation
import Testing
import HEVC
import TestSupport

/// HEVC-specific oracles: ffprobe's JSON for a stream. Tools, media paths, temporary directories and
/// MP4 boxes come from `TestSupport`; NAL unit splitting from `Bitstream.AnnexB`.
///
/// Where `CI=true`, a missing tool fails the tests instead of skipping them; tests that read the shared
/// media carry the trait `.requiresMedia`.
enum Oracle {
    /// Runs ffprobe with JSON output and returns the decoded object.
    static func probe(_ arguments: [String], file: String) throws -> [String: Any] {
        let data = try ExternalTool.check("ffprobe", ["-v", "error", "-of", "json"] + arguments + [file]).standardOutput
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// The first video stream ffprobe reports, optionally with its frames counted (which decodes them).
    static func videoStream(of file: String, countingFrames: Bool = false) throws -> [String: Any] {
        let json = try probe(["-select_streams", "v:0"] + (countingFrames ? ["-count_frames"] : []) + ["-show_streams"], file: file)
        return ((json["streams"] as? [[String: Any]]) ?? []).first ?? [:]
    }

    /// The `pict_type` of every frame ffprobe decodes, in output order.
    static func pictureTypes(of file: String) throws -> [String] {
        let json = try probe(["-select_streams", "v:0", "-show_entries", "frame=pict_type"], file: file)
        return ((json["frames"] as? [[String: Any]]) ?? []).compactMap { $0["pict_type"] as? String }
    }
}

/// A test stream: where it is and what it exercises.
struct TestStream: Sendable, CustomTestStringConvertible {
    let name: String
    let path: String
    var testDescription: String { name }

    /// The bytes of the stream's file.
    func bytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// The streams every test runs on: two from the shared media folder and several x265 encodes,
/// generated once per test run into a temporary directory (x265 through ffmpeg's libx265).
enum Streams {
    /// The x265 encodes: name → (size, frame count, pixel format, x265 parameters, ffmpeg preset).
    static let recipes: [(name: String, size: String, frames: Int, pixelFormat: String, parameters: String)] = [
        ("x265-bframes", "320x240", 30, "yuv420p", "bframes=3"),
        ("x265-odd-1918x1078", "1918x1078", 2, "yuv420p", "bframes=0"),
        ("x265-open-gop-cra", "320x240", 25, "yuv420p", "keyint=10:open-gop=1"),
        ("x265-hrd", "320x240", 10, "yuv420p", "hrd=1:vbv-bufsize=1000:vbv-maxrate=1000"),
        ("x265-rext-422-10bit", "320x240", 3, "yuv422p10le", "bframes=0"),
        ("x265-scaling-lists", "320x240", 3, "yuv420p", "scaling-list=SCALING"),
    ]

    /// An x265 encode whose SPS breaks §7.4.5: with equal intra and inter 32×32 lists, x265 codes
    /// `scaling_list_pred_matrix_id_delta` 3 for `sizeId` 3, `matrixId` 3 (allowed: 0…1). ffmpeg rejects it too.
    static let invalidScalingListRecipe = (name: "x265-scaling-lists-invalid", size: "320x240", frames: 1,
                                           pixelFormat: "yuv420p", parameters: "scaling-list=SAME32")

    /// The shared media streams (relative to the media folder).
    static let media = ["encoded/cars_320x240.h265", "rtp/wilson_raw.h265"]

    /// Generates the x265 streams once; the result is shared by all tests.
    static let generated: Result<[TestStream], any Error> = Result {
        let directory = try ExternalTool.temporaryDirectory()
        let scalingList = directory.appendingPathComponent("scaling.txt")
        try scalingListFile(distinct32x32: true).write(to: scalingList, atomically: true, encoding: .utf8)
        let same32 = directory.appendingPathComponent("scaling-same32.txt")
        try scalingListFile(distinct32x32: false).write(to: same32, atomically: true, encoding: .utf8)
        var streams = [TestStream]()
        for recipe in recipes + [invalidScalingListRecipe] {
            let output = directory.appendingPathComponent("\(recipe.name).h265").path
            let parameters = recipe.parameters.replacingOccurrences(of: "SCALING", with: scalingList.path)
                .replacingOccurrences(of: "SAME32", with: same32.path)
            let preset = recipe.size == "1918x1078" ? ["-preset", "ultrafast"] : []
            try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(recipe.size):rate=25",
                                              "-frames:v", "\(recipe.frames)", "-pix_fmt", recipe.pixelFormat, "-c:v", "libx265"]
                                    + preset + ["-x265-params", parameters + ":log-level=error", output])
            streams.append(TestStream(name: recipe.name, path: output))
        }
        return streams
    }

    /// A custom scaling-list file in the HM format x265 reads (values are arbitrary test data).
    /// - Parameter distinct32x32: whether the inter 32×32 list differs from the intra one.
    static func scalingListFile(distinct32x32: Bool) -> String {
        var text = ""
        for (size, count) in [("4X4", 16), ("8X8", 64), ("16X16", 64), ("32X32", 64)] {
            for kind in ["INTRA", "INTER"] {
                for component in size == "32X32" ? ["LUMA"] : ["LUMA", "CHROMAU", "CHROMAV"] {
                    let shift = distinct32x32 && kind == "INTER" ? 5 : 0
                    let values = (0..<count).map { String(16 + ($0 * 7 + shift + component.count) % 23) }
                    text += "\(kind)\(size)_\(component) =\n"
                    text += stride(from: 0, to: count, by: 8).map { values[$0..<min($0 + 8, count)].joined(separator: ",") }
                        .joined(separator: "\n") + "\n"
                    if size == "16X16" || size == "32X32" { text += "\(kind)\(size)_\(component)_DC =\n\(18 + count % 5)\n" }
                }
            }
        }
        return text
    }

    /// Every stream: the shared media ones and the generated ones.
    static func all() throws -> [TestStream] {
        let shared = media.map { TestStream(name: $0, path: MediaFiles.url($0).path) }
        return shared + (try generated.get())
    }

    /// One generated stream by name.
    static func generated(_ name: String) throws -> TestStream {
        guard let stream = try generated.get().first(where: { $0.name == name }) else {
            throw TestFailure("no generated stream \(name)")
        }
        return stream
    }
}

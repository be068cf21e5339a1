import Foundation
import Testing
import Bitstream
import HEVC

/// Oracles and fixtures for the HEVC tests: real tools (ffmpeg, ffprobe) and real streams
/// (the shared media folder and streams x265 generates into a temporary directory).
///
/// Where `CI=true`, a missing tool or media folder fails the tests instead of skipping them.
enum Oracle {
    /// Whether the suite runs in CI, where every oracle must be present.
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The full path of a tool on `PATH`, if installed.
    static func path(of name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether tests needing ffmpeg/ffprobe should run: installed, or CI (where absence must fail).
    static var toolsRunnable: Bool { isCI || (path(of: "ffmpeg") != nil && path(of: "ffprobe") != nil) }

    /// Whether tests needing the shared media should run: present, or CI.
    static var mediaRunnable: Bool { isCI || FileManager.default.fileExists(atPath: mediaRoot.path) }

    /// `../shared/media` from the package root.
    static let mediaRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/media").standardizedFileURL

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool and returns its standard output; throws on a non-zero exit or a missing tool.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> Data {
        guard let executable = path(of: name) else { throw ToolFailure(description: "\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hevc-out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("hevc-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: try Data(contentsOf: err), as: UTF8.self)
            throw ToolFailure(description: "\(name) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(message.suffix(600))")
        }
        return try Data(contentsOf: out)
    }

    /// Runs ffprobe with JSON output and returns the decoded object.
    static func probe(_ arguments: [String], file: String) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments + [file])
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

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hevc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The NAL units of an Annex B file.
    static func nalUnits(of file: String) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        return AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
    }

    /// The payloads of every box of `type` in an MP4 file (searches nested boxes of the usual containers).
    static func boxPayloads(_ type: String, in bytes: [UInt8]) -> [[UInt8]] {
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "moof", "traf"]
        var result = [[UInt8]]()
        func walk(_ range: Range<Int>) {
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
                guard size >= 8, offset + size <= range.upperBound else { return }
                let body = offset + 8..<offset + size
                if name == type { result.append(Array(bytes[body])) }
                if containers.contains(name) { walk(body) }
                if name == "stsd" { walk(body.lowerBound + 8..<body.upperBound) }   // version/flags + entry count
                if name == "hvc1" || name == "hev1" { walk(body.lowerBound + 78..<body.upperBound) }  // VisualSampleEntry
                offset += size
            }
        }
        walk(0..<bytes.count)
        return result
    }
}

/// A test stream: where it is and what it exercises.
struct TestStream: Sendable, CustomTestStringConvertible {
    let name: String
    let path: String
    var testDescription: String { name }
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
    static let generated: Result<[TestStream], Oracle.ToolFailure> = {
        do {
            let directory = try Oracle.temporaryDirectory()
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
                try Oracle.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(recipe.size):rate=25",
                                          "-frames:v", "\(recipe.frames)", "-pix_fmt", recipe.pixelFormat, "-c:v", "libx265"]
                                + preset + ["-x265-params", parameters + ":log-level=error", output])
                streams.append(TestStream(name: recipe.name, path: output))
            }
            return .success(streams)
        } catch let failure as Oracle.ToolFailure {
            return .failure(failure)
        } catch {
            return .failure(Oracle.ToolFailure(description: "\(error)"))
        }
    }()

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
        let shared = media.map { TestStream(name: $0, path: Oracle.mediaRoot.appendingPathComponent($0).path) }
        return shared + (try generated.get())
    }

    /// One generated stream by name.
    static func generated(_ name: String) throws -> TestStream {
        guard let stream = try generated.get().first(where: { $0.name == name }) else {
            throw Oracle.ToolFailure(description: "no generated stream \(name)")
        }
        return stream
    }
}

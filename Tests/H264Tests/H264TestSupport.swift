import Bitstream
import H264
import Foundation
import Testing

/// Shared helpers of the H264 tests: the shared media, the external oracle tools, NAL unit splitting.
///
/// (The package's `TestSupport` target is not a dependency of `H264Tests`, so the few helpers
/// needed are kept here.)
enum H264TestSupport {
    /// The shared media folder: `../shared/media` beside the package root (see its MANIFEST.md).
    static let mediaRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/media")

    /// Whether the tests run in CI (`CI=true`), where a missing oracle tool is a failure.
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Every H.264 elementary stream of the shared media: the conformance streams and the
    /// encoder outputs in `encoded/` (`.264`, `.h264`), as paths relative to the media root.
    static var mediaStreams: [String] {
        files(under: "h264-conformance", extensions: ["264", "h264", "jsv", "avc"])
            + files(under: "encoded", extensions: ["264", "h264"])
    }

    /// The conformance streams only.
    static var conformanceStreams: [String] {
        files(under: "h264-conformance", extensions: ["264", "h264", "jsv", "avc"])
    }

    /// Files under a media sub-folder with one of the extensions, sorted.
    static func files(under folder: String, extensions: Set<String>) -> [String] {
        let base = mediaRoot.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let file as URL in walker where extensions.contains(file.pathExtension.lowercased()) {
            found.append(folder + "/" + file.path.dropFirst(base.path.count + 1))
        }
        return found.sorted()
    }

    /// The bytes of a media file.
    static func mediaBytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: mediaRoot.appendingPathComponent(relativePath)))
    }

    /// The NAL units of an Annex B stream (start codes and trailing zeros removed).
    static func nalUnits(in stream: [UInt8]) -> [ArraySlice<UInt8>] {
        AnnexB.nalUnitRanges(in: stream).map { stream[$0] }
    }

    // MARK: - External tools

    /// The full path of a tool on `PATH`, if installed.
    static func path(of tool: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in paths where FileManager.default.isExecutableFile(atPath: "\(directory)/\(tool)") {
            return "\(directory)/\(tool)"
        }
        return nil
    }

    /// Whether tests needing these tools should run: the tools are installed, or this is CI (where the
    /// test then runs and fails on the missing tool instead of being skipped).
    static func toolsRunnable(_ tools: String...) -> Bool {
        isCI || tools.allSatisfy { path(of: $0) != nil }
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool and returns its standard output; throws when it is missing or exits non-zero.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard let executable = path(of: tool) else { throw ToolFailure(description: "\(tool) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("h264-test-out-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent("h264-test-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(message.suffix(600))")
        }
        return try Data(contentsOf: outURL)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("h264-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: - ffprobe

    /// What ffprobe reports for the first video stream of a file.
    struct ProbedStream: Decodable {
        var width: Int
        var height: Int
        var profile: String?
        var level: Int?
        var nbReadPackets: String?
        var nbReadFrames: String?
        var sampleAspectRatio: String?
        var colorRange: String?
        var colorPrimaries: String?

        enum CodingKeys: String, CodingKey {
            case width, height, profile, level
            case sampleAspectRatio = "sample_aspect_ratio"
            case colorRange = "color_range"
            case colorPrimaries = "color_primaries"
            case nbReadPackets = "nb_read_packets"
            case nbReadFrames = "nb_read_frames"
        }
    }

    private struct ProbeOutput: Decodable {
        var streams: [ProbedStream]
    }

    /// Runs `ffprobe -show_streams` (and `-count_packets`) on a file.
    static func probe(_ path: String, countPackets: Bool = false, countFrames: Bool = false) throws -> ProbedStream {
        var arguments = ["-v", "error", "-select_streams", "v:0"]
        if countPackets { arguments.append("-count_packets") }
        if countFrames { arguments.append("-count_frames") }
        arguments += ["-show_entries", "stream=width,height,profile,level,nb_read_packets,nb_read_frames,sample_aspect_ratio,color_range,color_primaries", "-of", "json", path]
        let output = try run("ffprobe", arguments)
        let decoded = try JSONDecoder().decode(ProbeOutput.self, from: output)
        guard let stream = decoded.streams.first else { throw ToolFailure(description: "ffprobe found no video stream in \(path)") }
        return stream
    }

    // MARK: - x264

    /// Encodes a few frames with the x264 command-line tool and returns the Annex B stream.
    /// - Parameters:
    ///   - arguments: x264 options (profile, preset, slices …).
    ///   - size: the picture size; the source is ffmpeg's `testsrc` unless `y4m` is given.
    ///   - frames: how many frames.
    ///   - y4m: a y4m file to encode instead of a generated source.
    static func x264(_ arguments: [String], size: (Int, Int) = (176, 144), frames: Int = 8, y4m: String? = nil) throws -> (stream: [UInt8], path: String) {
        let directory = try temporaryDirectory()
        var source = y4m ?? ""
        if y4m == nil {
            source = directory.appendingPathComponent("source.y4m").path
            try run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size.0)x\(size.1):rate=25",
                               "-frames:v", "\(frames)", "-pix_fmt", "yuv420p", source])
        }
        let output = directory.appendingPathComponent("out.264").path
        try run("x264", ["--quiet", "--frames", "\(frames)"] + arguments + ["-o", output, source])
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), output)
    }
}

// MARK: - Access units

/// One access unit as the tests see it.
struct DetectedAccessUnit {
    /// The primary picture (nil for an access unit without one).
    var picture: H264Picture?
    /// The NAL unit types, in order.
    var nalUnitTypes: [H264NALUnitType] = []
    /// The slice headers of the primary and redundant pictures.
    var sliceHeaders: [H264SliceHeader] = []
    /// The NAL units themselves.
    var nalUnits: [ArraySlice<UInt8>] = []
}

extension H264TestSupport {
    /// Groups the NAL units of an Annex B stream into access units with ``H264AccessUnitDetector``.
    static func accessUnits(in stream: [UInt8]) throws -> [DetectedAccessUnit] {
        var detector = H264AccessUnitDetector()
        var units: [DetectedAccessUnit] = []
        for nal in nalUnits(in: stream) {
            let result = try detector.process(nal)
            if result.startsAccessUnit || units.isEmpty { units.append(DetectedAccessUnit()) }
            units[units.count - 1].nalUnitTypes.append(result.nalUnitHeader.nalUnitType)
            units[units.count - 1].nalUnits.append(nal)
            if let slice = result.sliceHeader { units[units.count - 1].sliceHeaders.append(slice) }
            if let picture = result.picture { units[units.count - 1].picture = picture }
        }
        return units
    }

    /// The decoding-order indices of pictures, rearranged into display order: pictures are sorted by
    /// picture order count between pictures that reset the order (IDR, MMCO 5).
    static func displayOrder(of pictures: [H264Picture]) -> [Int] {
        displayOrder(of: pictures.map { ($0.pictureOrderCount.value, $0.resetsPictureOrder) })
    }

    /// The indices of (order count, resets order) entries rearranged into display order.
    static func displayOrder(of entries: [(count: Int, resets: Bool)]) -> [Int] {
        var order: [Int] = []
        var group: [(index: Int, count: Int)] = []
        for (index, entry) in entries.enumerated() {
            if entry.resets && !group.isEmpty {
                order += group.sorted { ($0.count, $0.index) < ($1.count, $1.index) }.map(\.index)
                group = []
            }
            group.append((index, entry.count))
        }
        order += group.sorted { ($0.count, $0.index) < ($1.count, $1.index) }.map(\.index)
        return order
    }
}

import Foundation
import Testing

// Test helpers for AACTests. (The package's shared TestSupport target is not a dependency of this
// test target, so the few helpers needed are kept here.)

/// The shared media folder (`../shared/media` beside the package root, see its MANIFEST.md).
enum Media {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/media")

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    static let sample = "audio/exoplayer/sample.adts"
    static let sampleWithID3 = "audio/exoplayer/sample_with_id3.adts"
    static let sampleTruncated = "audio/exoplayer/sample_cbs_truncated.adts"
}

/// Runs ffmpeg / ffprobe, the oracles these tests compare against.
enum Tools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    static func path(of name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether tests needing `names` run: the tools are there, or this is CI (where a missing tool must
    /// fail the test rather than skip it).
    static func runnable(_ names: String...) -> Bool {
        isCI || names.allSatisfy { path(of: $0) != nil }
    }

    /// Runs a tool; throws when it is missing or exits non-zero.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> Data {
        guard let executable = path(of: name) else { throw Failure(description: "\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let output = try Data(contentsOf: outURL)
        guard process.terminationStatus == 0 else {
            let error = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(error)")
        }
        return output
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aactests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `ffprobe -show_streams -count_packets` of the first audio stream, as key → value.
    static func probeAudio(_ url: URL) throws -> [String: String] {
        let data = try run("ffprobe", ["-v", "error", "-count_packets", "-select_streams", "a:0",
                                       "-show_entries", "stream=codec_name,profile,sample_rate,channels,nb_read_packets",
                                       "-of", "default=noprint_wrappers=1", url.path])
        var fields: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    /// Encodes a sine tone with FFmpeg's native AAC encoder into an ADTS file.
    static func encodeSine(sampleRate: Int, channels: Int, seconds: Double, extra: [String] = [], into directory: URL,
                           name: String = "tone.aac") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate)",
                           "-ac", "\(channels)", "-t", "\(seconds)", "-c:a", "aac"] + extra + ["-f", "adts", url.path])
        return url
    }
}

/// The payload of the `DecoderSpecificInfo` (tag 0x05) inside the first `esds` box of an MP4 file
/// (ISO/IEC 14496-1 §7.2.6: ES_Descriptor 0x03 → DecoderConfigDescriptor 0x04 → DecoderSpecificInfo 0x05).
func decoderSpecificInfo(inMP4 bytes: [UInt8]) -> [UInt8]? {
    let esds: [UInt8] = Array("esds".utf8)
    guard var index = (0..<max(0, bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == esds }) else { return nil }
    index += 4 + 4 // box type, version + flags
    func descriptor(at offset: Int) -> (tag: UInt8, body: Int, size: Int)? {
        guard offset < bytes.count else { return nil }
        var size = 0
        var cursor = offset + 1
        for _ in 0..<4 {
            guard cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            size = size << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return (bytes[offset], cursor, size)
    }
    guard let es = descriptor(at: index), es.tag == 0x03, es.body + 3 <= bytes.count else { return nil }
    let flags = bytes[es.body + 2]
    var cursor = es.body + 3
    if flags & 0x80 != 0 { cursor += 2 }                                      // dependsOn_ES_ID
    if flags & 0x40 != 0, cursor < bytes.count { cursor += 1 + Int(bytes[cursor]) } // URL
    if flags & 0x20 != 0 { cursor += 2 }                                      // OCR_ES_Id
    guard let config = descriptor(at: cursor), config.tag == 0x04 else { return nil }
    guard let info = descriptor(at: config.body + 13), info.tag == 0x05, info.body + info.size <= bytes.count else { return nil }
    return Array(bytes[info.body..<(info.body + info.size)])
}

/// Records a skip outside CI when a tool is missing (in CI the test runs and fails instead).
func toolsMissing(_ names: String...) -> Bool {
    if Tools.isCI { return false }
    return !names.allSatisfy { Tools.path(of: $0) != nil }
}

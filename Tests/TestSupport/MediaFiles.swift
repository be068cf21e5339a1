import Foundation
import Synchronization
import Testing

/// Locates the shared test media (see its MANIFEST.md): the folder env `STREAMKIT_MEDIA` names, else
/// `../shared/media` beside the package root.
///
/// Every test that reads it carries the trait ``Testing/Trait/requiresMedia``. Where the folder is
/// missing those tests are skipped, and one line at the end of the run says how many and why —
/// except under `CI=true`, where each of them fails.
public enum MediaFiles {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The environment variable that names the media folder.
    public static let environmentVariable = "STREAMKIT_MEDIA"

    /// The shared media folder: `STREAMKIT_MEDIA` (a relative path is taken from the package root),
    /// else `../shared/media` beside the package root.
    public static let root: URL = {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return named.hasPrefix("/") ? URL(fileURLWithPath: named) : packageRoot.appendingPathComponent(named)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")
    }()

    /// Whether the media folder exists.
    public static var isAvailable: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Why the media is missing, and what to do.
    public static var missingReason: String {
        "the shared test media is not at \(root.path) (set \(environmentVariable) to the media folder)"
    }

    /// The tests (and suites) that needed the media and did not find it, so far.
    private static let missed = Mutex(0)

    /// Decides whether a test that needs the media runs: yes if the folder is there; else the test is
    /// counted — and the count is printed in one line when the test process ends — and then, under
    /// `CI=true`, fails (the condition throws), else is skipped.
    /// - Returns: whether the test should run.
    /// - Throws: ``TestFailure`` in CI when the folder is missing.
    static func shouldRunTestNeedingMedia() throws -> Bool {
        if isAvailable { return true }
        let isFirst = missed.withLock { count in
            count += 1
            return count == 1
        }
        if isFirst { atexit { MediaFiles.printMissingMediaSummary() } }
        if ExternalTool.isCI { throw TestFailure("CI=true: \(missingReason)") }
        return false
    }

    /// Prints the one line that says how many tests needed the media, what happened to them, and why.
    private static func printMissingMediaSummary() {
        let count = missed.withLock { $0 }
        guard count > 0 else { return }
        let tests = "\(count) test\(count == 1 ? "" : "s") (functions and suites) that read media"
        let line = ExternalTool.isCI ? "error: CI=true: \(tests) failed: \(missingReason)\n"
                                     : "note: skipped \(tests): \(missingReason)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// The URL of a file in the shared media folder.
    /// - Parameter relativePath: a path such as `encoded/cars_320x240.h264`.
    /// - Returns: its URL.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The bytes of a file in the shared media folder.
    /// - Parameter relativePath: a path such as `encoded/cars_320x240.h264`.
    /// - Returns: the file's bytes.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    /// Every file under a media sub-folder whose extension is one of `extensions`, sorted by path.
    /// - Parameters:
    ///   - folder: a sub-folder such as `h264-conformance`.
    ///   - extensions: lower-case extensions without the dot.
    /// - Returns: paths relative to the media root.
    public static func files(under folder: String, extensions: Set<String>) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let file as URL in walker where extensions.contains(file.pathExtension.lowercased()) {
            found.append(folder + "/" + file.path.dropFirst(base.path.count + 1))
        }
        return found.sorted()
    }

    /// The H.264 Annex B streams of the shared media: conformance, encoder output and RTP reference.
    public static var h264Streams: [String] {
        files(under: "h264-conformance", extensions: ["264", "h264", "jsv", "avc", "26l", "jvt"])
            + files(under: "encoded", extensions: ["264", "h264"])
    }

    /// The H.265 Annex B streams of the shared media.
    public static var hevcStreams: [String] {
        files(under: "encoded", extensions: ["h265", "265", "hevc"]) + files(under: "rtp", extensions: ["h265"])
    }

    /// The ADTS streams of the shared media.
    public static var adtsStreams: [String] {
        files(under: "audio", extensions: ["adts", "aac"])
    }
}

extension Trait where Self == ConditionTrait {
    /// The test reads the shared media: it is skipped (and counted in one closing line) when the
    /// folder is missing, and fails then under `CI=true`. See ``MediaFiles``.
    public static var requiresMedia: Self {
        .enabled { try MediaFiles.shouldRunTestNeedingMedia() }
    }
}

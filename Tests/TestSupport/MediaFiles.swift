import Foundation

/// Locates the shared test media (`../shared/media` beside the package root, see its MANIFEST.md).
public enum MediaFiles {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared media folder.
    public static let root: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")

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

import Foundation
import TestSupport

/// The media the RTMP ingest tests send: a real x264 (or x265) encode with AAC, made by Debian's ffmpeg, and the
/// elementary streams ffmpeg itself extracts from it (the oracle our recordings must equal byte for byte).
struct IngestMedia {
    let input: String
    let videoReference: String
    let audioReference: String

    /// Encodes `seconds` of test pattern and tone.
    /// - Parameters:
    ///   - hevc: x265 instead of x264.
    ///   - seconds: the length.
    ///   - directory: where the files go.
    init(hevc: Bool = false, seconds: Int = 2, in directory: URL) throws {
        let name = hevc ? "hevc" : "avc"
        input = directory.appendingPathComponent("\(name).mp4").path
        videoReference = directory.appendingPathComponent("\(name)-reference.\(hevc ? "h265" : "h264")").path
        audioReference = directory.appendingPathComponent("\(name)-reference.aac").path
        try ExternalTool.check("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "\(seconds)", "-pix_fmt", "yuv420p", "-c:v", hevc ? "libx265" : "libx264", "-g", "25", "-bf", "2",
        ] + (hevc ? ["-x265-params", "log-level=error"] : []) + ["-c:a", "aac", "-shortest", input])
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", input, "-map", "0:v", "-c", "copy", "-bsf:v",
                                          hevc ? "hevc_mp4toannexb" : "h264_mp4toannexb", "-f", hevc ? "hevc" : "h264", videoReference])
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", input, "-map", "0:a", "-c", "copy", "-f", "adts", audioReference])
    }

    /// A file's bytes (empty when it is missing).
    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
}

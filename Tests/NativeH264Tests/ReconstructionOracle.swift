import Foundation
import Testing
import TestSupport

/// The native encoder's bit-exactness oracle: ffmpeg decodes our stream with `-err_detect explode` (any bitstream
/// error fails), and the md5 of every frame it decodes equals the md5 of the encoder's own reconstruction of it.
enum ReconstructionOracle {
    /// Writes the stream and the reconstruction to a fresh folder and expects ffmpeg's decode to equal the
    /// reconstruction, frame for frame.
    /// - Parameters:
    ///   - stream: our Annex B stream.
    ///   - reconstruction: our reconstructed frames, I420, one after the other.
    ///   - width: the frame width.
    ///   - height: the frame height.
    ///   - frames: how many frames the stream holds.
    ///   - label: what the failure messages name.
    ///   - inspect: runs on the stream's file before the folder is removed (e.g. ffprobe).
    /// - Returns: what `inspect` returned.
    /// - Throws: what writing the files, running ffmpeg or `inspect` threw.
    @discardableResult
    static func expectDecodes<Result>(_ stream: [UInt8], toReconstruction reconstruction: [UInt8], width: Int, height: Int,
                                      frames: Int, label: String, inspect: (String) throws -> Result = { _ in () }) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("native-h264-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let streamPath = directory.appendingPathComponent("ours.h264").path
        let reconstructionPath = directory.appendingPathComponent("recon.yuv").path
        try Data(stream).write(to: URL(fileURLWithPath: streamPath))
        try Data(reconstruction).write(to: URL(fileURLWithPath: reconstructionPath))

        let decoded = try ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-err_detect", "explode",
                                                       "-i", streamPath, "-f", "framemd5", "-"])
        #expect(decoded.status == 0, "\(label): ffmpeg failed to decode: \(decoded.standardError)")
        #expect(decoded.standardError.isEmpty, "\(label): ffmpeg reported: \(decoded.standardError)")
        let ours = try ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                                                    "-s", "\(width)x\(height)", "-i", reconstructionPath, "-f", "framemd5", "-"])
        #expect(ours.status == 0, "\(label): \(ours.standardError)")
        let decodedHashes = FrameMD5.hashes(decoded.text), ourHashes = FrameMD5.hashes(ours.text)
        #expect(decodedHashes.count == frames, "\(label): ffmpeg decoded \(decodedHashes.count) of \(frames) frames")
        let firstDifference = zip(decodedHashes, ourHashes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(decodedHashes == ourHashes, "\(label): decoded frames differ from the encoder's reconstruction from frame \(firstDifference ?? -1)")
        return try inspect(streamPath)
    }
}

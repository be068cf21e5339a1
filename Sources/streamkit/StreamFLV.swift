import Containers
import Foundation
import MediaCore
import Transport

/// `stream INPUT.flv rtp://… | rtsp://…`: the FLV's pictures and AAC frames sent as RTP as they are (no
/// re-encode), at their own pace as a file input of `stream` always goes, their timestamps kept (a picture's
/// RTP timestamp is its pts, RFC 6184 §5.1).
extension StreamCommand {
    /// Streams an FLV file.
    /// - Parameter path: the file.
    /// - Returns: the exit status.
    /// - Throws: what opening, reading or sending threw.
    func streamFLV(_ path: String) async throws -> Int32 {
        var feed = try FLVFeed(path: path)
        let wallClockStart = Date()
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var sender = try RTPMediaSender(videoFormat: feed.videoFormat, audioFormat: feed.audioFormat, maximumPacketSize: maximumPacketSize,
                                        wallClockStart: wallClockStart)
        let fps = feed.frameRate ?? 30
        let (output, finish) = try await openDestination(videoFormat: feed.videoFormat, audioFormat: feed.audioFormat, fps: fps, loop: loop)
        var saved = try savePath.map { try AnnexBWriter(path: $0) }
        var failure: (any Error)?
        var sent = (video: 0, audio: 0)
        do {
            sent = try await feed.run(realTime: true, limit: frameLimit) { item in
                try await sender.send(item, to: output)
                if case let .video(frame) = item { try saved?.write(frame) }
            }
        } catch {
            failure = error
        }
        do { try saved?.finish() } catch { failure = failure ?? error }
        for (track, bytes) in (try? sender.goodbye()) ?? [] { try? await output(bytes, track, true) }
        await finish()
        if let failure { throw failure }
        printError("sent \(sent.video) video frames and \(sent.audio) audio frames")
        return 0
    }
}

import Containers
import Foundation
import MediaCore
import Transport

/// `publish INPUT.flv rtmp://…`: the FLV's pictures and audio frames sent as they are (no re-encode, like
/// `ffmpeg -re -i x.flv -c copy -f flv rtmp://…`), their pts and dts (composition times) kept; the publisher
/// interleaves them by decode time. `--re` sends them at their own pace, else as fast as the link takes them.
extension PublishCommand {
    /// Publishes an FLV file.
    /// - Parameters:
    ///   - path: the file.
    ///   - realTime: whether to pace the frames to their decode times.
    /// - Throws: what opening the file, reading it or publishing threw.
    func publishFLV(_ path: String, realTime: Bool) async throws {
        var feed = try FLVFeed(path: path)
        try await publishEncoded(path, hasVideo: feed.videoFormat != nil, hasAudio: feed.audioFormat != nil,
                                 videoCodec: feed.videoFormat?.codec ?? .h264, realTime: realTime) { publisher in
            _ = try await feed.run(realTime: realTime) { item in
                switch item {
                case let .video(frame): try await publisher.send(frame)
                case let .audio(frame): try await publisher.send(frame)
                }
            }
        }
    }
}

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
        var configuration = RTMPPublisherConfiguration(
            hasVideo: feed.videoFormat != nil, hasAudio: feed.audioFormat != nil, videoCodec: feed.videoFormat?.codec ?? .h264,
            queueLimits: SendQueueLimits(maximumSeconds: maximumDelay, policy: realTime ? .drop : .wait))
        configuration.tlsTrust = tlsTrust
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let publisher = try await RTMPPublisher.connect(to: url, configuration: configuration, on: loop)
        printError("publishing \(path) to \(publisher.url)\(realTime ? " in real time" : "")")
        let events = Task { await Self.follow(publisher.events) { nil } }
        var failure: (any Error)?
        do {
            _ = try await feed.run(realTime: realTime) { item in
                switch item {
                case let .video(frame): try await publisher.send(frame)
                case let .audio(frame): try await publisher.send(frame)
                }
            }
        } catch {
            failure = error
        }
        try await finish(publisher, events: events, failure: failure)
    }
}

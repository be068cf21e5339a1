import Foundation
import Live
import Transport

/// `streamkit receive rtmp[s]://HOST[:PORT]/APP/KEY -o OUT` (plays the stream from a server) and
/// `streamkit receive --listen rtmp://ADDRESS:PORT/APP/KEY -o OUT` (an ingest: accepts one publisher — ffmpeg,
/// OBS — whose stream key is KEY, refuses every other key, and records what it sends): a shell over ``RTMPSource``
/// and ``LivePipeline`` with file destinations; `.flv` and Annex B (as they came) go through the library's
/// ``RTMPRecording`` of an ``RTMPMessageFeed``.
struct RTMPReceive {
    let url: RTMPURL
    let isListening: Bool
    let output: String
    let audioOutput: String?
    let trust: TLSTrust
    let frameLimit: Int?
    let seconds: Double?
    let idleSeconds: Double

    /// Receives until the publisher leaves (or the server ends the stream), the limit, silence, or Ctrl-C.
    /// - Returns: the exit status: 0 when something was recorded.
    /// - Throws: RTMP, TLS, tag and file errors.
    func run() async throws -> Int32 {
        // The tags as they came, or the video as ffmpeg's `-c copy` frames it: straight from the messages.
        guard !RTMPRecording.writes(output) else {
            return try await recordTags()
        }
        let source = isListening ? try RTMPSource(listeningAt: url.description) : try RTMPSource(playing: url.description, trust: trust)
        if let events = source.serverEvents { Task { for await event in events { Self.log(event) } } }
        let pipeline = LivePipeline(source: source, frameLimit: frameLimit)
        var pictures: Y4MFileDestination?
        switch (output as NSString).pathExtension.lowercased() {
        case "mp4": pipeline.add(MP4FileDestination(path: output), options: .recording())
        case "y4m":
            let decoded = Y4MFileDestination(path: output, registry: EngineSetup.registry())
            pictures = decoded
            pipeline.add(decoded, options: .recording())
        default: pipeline.add(ADTSFileDestination(path: output), options: .recording())
        }
        if let audioOutput { pipeline.add(ADTSFileDestination(path: audioOutput), options: .recording()) }
        if let address = source.localAddress {
            printError("listening on rtmp://\(address)/\(url.app)/\(url.streamName)")
        } else {
            printError("playing \(url)")
        }
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds, arrivals: {
            let counts = source.statistics
            return counts.videoFramesGood + counts.audioFramesGood
        }, stop: { pipeline.stop() })
        defer { watchdog.cancel() }
        let report = try await pipeline.run()
        if let format = source.streamDescription?.video { printError("video: \(format.codec.rawValue) \(format.width)x\(format.height)") }
        if let format = source.streamDescription?.audio { printError("audio: AAC \(format.sampleRate) Hz, \(format.channelCount) channels") }
        let counts = source.statistics
        printError("received \(counts.videoFramesGood) video frames, \(counts.audioFramesGood) audio frames")
        if let pictures { printError("decoded \(pictures.picturesWritten) pictures") }
        for destination in report.destinations {
            if let failure = destination.failure { throw CommandLineError.conflict("\(destination.name): \(failure)") }
        }
        return counts.videoFramesGood + counts.audioFramesGood > 0 ? 0 : 1
    }

    private static func log(_ event: RTMPServerEvent) {
        switch event {
        case let .publishing(path, from): printError("\(from) publishes \(path)")
        case let .refused(request, reason): printError("refused \(request.role.rawValue) of \(request.path) from \(request.remoteAddress): \(reason)")
        case let .failed(address, error): printError("\(address): \(error)")
        default: break
        }
    }

    /// `.flv` (the tags as they came) and Annex B, through ``RTMPRecording``.
    private func recordTags() async throws -> Int32 {
        let recording = try RTMPRecording(output: output, audioOutput: audioOutput)
        let feed: RTMPMessageFeed
        if isListening {
            feed = try RTMPMessageFeed.listening(at: url) { Self.log($0) }
            printError("listening on rtmp://\(feed.localAddress ?? "?")/\(url.app)/\(url.streamName)")
        } else {
            feed = try await RTMPMessageFeed.playing(url, trust: trust)
            printError("playing \(url)")
        }
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds) { await feed.stop() }
        defer { watchdog.cancel() }
        var failure: (any Error)?
        do { try await recording.record(from: feed, frameLimit: frameLimit) { watchdog.noteArrival() } } catch { failure = error }
        for line in recording.report { printError(line) }
        if let failure { throw failure }
        return recording.videoFrames + recording.audioFrames > 0 ? 0 : 1
    }
}

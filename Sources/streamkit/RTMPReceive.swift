import Foundation
import POSIX
import Transport

/// `streamkit receive rtmp[s]://HOST[:PORT]/APP/KEY -o OUT` (plays the stream from a server) and
/// `streamkit receive --listen rtmp://ADDRESS:PORT/APP/KEY -o OUT` (an ingest: accepts one publisher — ffmpeg,
/// OBS — whose stream key is KEY, refuses every other key, and records what it sends).
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
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let recording = try RTMPRecording(output: output, audioOutput: audioOutput)
        let messages: AsyncStream<RTMPMessage>
        let stop: @Sendable () async -> Void
        if isListening {
            let path = "\(url.app)/\(url.streamName)"
            let server = try RTMPServer(configuration: .allowing([path], address: try url.socketAddress()), on: loop)
            messages = server.subscribe(to: path)
            server.start()
            Task {
                for await event in server.events {
                    switch event {
                    case let .publishing(path, from): printError("\(from) publishes \(path)")
                    case let .refused(request, reason): printError("refused \(request.role.rawValue) of \(request.path) from \(request.remoteAddress): \(reason)")
                    case let .failed(address, error): printError("\(address): \(error)")
                    default: break
                    }
                }
            }
            printError("listening on rtmp://\(server.localAddress)/\(path)")
            stop = { server.stop() }
        } else {
            var options = RTMPClientOptions(fourCCs: ["hvc1", "avc1"])
            options.tlsTrust = trust
            let client = try await RTMPClient.connect(to: url.description, options: options, on: loop)
            try await client.play()
            printError("playing \(url)")
            messages = client.messages
            stop = { await client.close() }
        }

        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds, stop: stop)
        var failure: (any Error)?
        var counted = 0
        for await message in messages {
            watchdog.noteArrival()
            do {
                if try await recording.take(message) { counted += 1 }
            } catch {
                failure = error
                break
            }
            if let frameLimit, counted >= frameLimit { break }
        }
        watchdog.cancel()
        await stop()
        try await recording.finish()
        for line in recording.report { printError(line) }
        if let failure { throw failure }
        return recording.videoFrames + recording.audioFrames > 0 ? 0 : 1
    }
}

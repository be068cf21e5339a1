import StreamKit

// README example: going live begins
/// Goes live: the camera and the microphone to an RTMP server, the bit rate following the link.
func goLive(to url: String, for seconds: Double) async throws -> LiveReport {
    let camera = try defaultVideoSource(width: 640, height: 480, fps: 30).source    // V4L2, else synthetic
    let microphone = try Capture.defaultAudioSource().source                        // ALSA, else synthetic
    var video = CompressionConfiguration(codec: .h264, width: 640, height: 480,
                                         profileLevel: ProfileLevel(profile: .constrainedBaseline))
    video.averageBitRate = 1_500_000
    video.allowFrameReordering = false                   // live: no B-frames
    let pipeline = LivePipeline(video: camera, audio: microphone, configuration: LiveConfiguration(video: video))
    pipeline.add(RTMPDestination(url: url))              // adapts to its link; reconnects with backoff
    Task { for await event in pipeline.events { print(event) } }
    Task { try await Task.sleep(for: .seconds(seconds)); pipeline.stop() }
    return try await pipeline.run()                      // drains the encoders, finishes every destination
}
// README example: going live ends

// README example: serving and recording begins
/// Serves the camera over RTSP (rtsp://127.0.0.1:PORT/live) and records it into a fragmented MP4 at once.
func serveAndRecord(port: UInt16, to path: String, frames: Int) async throws -> LiveReport {
    var video = CompressionConfiguration(codec: .h264, width: 640, height: 480,
                                         profileLevel: ProfileLevel(profile: .constrainedBaseline))
    video.averageBitRate = 1_000_000
    video.allowFrameReordering = false
    var configuration = LiveConfiguration(video: video)
    configuration.frameLimit = frames
    let pipeline = LivePipeline(video: try SyntheticCamera(width: 640, height: 480, frameRate: 30),
                                audio: try SyntheticMicrophone(), configuration: configuration)
    let address = try SocketAddress(host: "127.0.0.1", port: port)
    pipeline.add(try RTSPServerDestination(configuration: RTSPServerConfiguration(address: address)))
    pipeline.add(MP4FileDestination(path: path), options: .recording())  // a recording never slows the others
    return try await pipeline.run()
}
// README example: serving and recording ends

// README example: receiving RTSP begins
/// Records an RTSP stream (a camera, a server) into an MP4 as it comes: no decoding, no re-encoding.
func receiveIntoMP4(from url: String, to path: String, frames: Int) async throws -> ReceivedStreamStatistics {
    let source = RTSPSource(url: url, transport: .tcp)    // or .udp; RTPSource(sdpFile:) for plain RTP
    let pipeline = LivePipeline(source: source, frameLimit: frames)
    pipeline.add(MP4FileDestination(path: path), options: .recording())
    let report = try await pipeline.run()                 // the MP4 is finished when it returns
    print(report)                                         // what each destination got
    return source.statistics                              // frames good / lost / withheld, packets, jitter
}
// README example: receiving RTSP ends

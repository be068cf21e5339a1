import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// A destination that runs a step of the test between opening another destination and its first frame: a receiver
/// that needs the SDP file the destination writes when it opens (`ffmpeg -i x.sdp`) starts there, and the frames
/// wait in the destination's queue meanwhile.
final class AfterOpenDestination: LiveDestination {
    let inner: any LiveDestination
    private let step: @Sendable () async throws -> Void
    var name: String { inner.name }
    var isLive: Bool { inner.isLive }
    var tracks: LiveTracks { inner.tracks }
    var events: AsyncStream<SendQueueEvent>? { inner.events }

    init(_ inner: any LiveDestination, then step: @escaping @Sendable () async throws -> Void) {
        self.inner = inner
        self.step = step
    }

    func open(_ stream: LiveStreamDescription) async throws {
        try await inner.open(stream)
        try await step()
    }

    func send(_ media: OutgoingMedia) async throws { try await inner.send(media) }
    func finish() async throws { try await inner.finish() }
}

/// A destination that records, after each frame it passes on, something the test reads of the destination's
/// state while the stream runs (an HLS playlist as it stands, for example).
final class ObservingDestination<Observation: Sendable>: LiveDestination {
    let inner: any LiveDestination
    private let observe: @Sendable () -> Observation
    private let observed = Mutex<[Observation]>([])
    var name: String { inner.name }
    var isLive: Bool { inner.isLive }
    var tracks: LiveTracks { inner.tracks }

    /// What was observed, one entry per frame.
    var observations: [Observation] { observed.withLock { $0 } }

    init(_ inner: any LiveDestination, observe: @escaping @Sendable () -> Observation) {
        self.inner = inner
        self.observe = observe
    }

    func open(_ stream: LiveStreamDescription) async throws { try await inner.open(stream) }

    func send(_ media: OutgoingMedia) async throws {
        try await inner.send(media)
        let observation = observe()
        observed.withLock { $0.append(observation) }
    }

    func finish() async throws { try await inner.finish() }
}

extension LiveTestSupport {
    /// A pipeline over the synthetic camera and, where this build encodes AAC, the synthetic microphone: 160x120, 30
    /// pictures a second, a key frame every 30 pictures.
    /// - Parameters:
    ///   - frames: how many pictures.
    ///   - realTime: whether the sources are paced as a camera and a microphone are (a network test: a receiver
    ///     reads a live stream, not a burst of seconds of it), or go as fast as the encoder (a recording).
    /// - Returns: the pipeline.
    static func filePipeline(frames: Int, realTime: Bool = false) throws -> LivePipeline {
        var configuration = LiveConfiguration(video: video(width: 160, height: 120))
        configuration.frameLimit = frames
        return LivePipeline(video: try SyntheticCamera(width: 160, height: 120, frameRate: 30, realTime: realTime),
                            audio: encodesAudio ? try SyntheticMicrophone(realTime: realTime) : nil, configuration: configuration)
    }

    /// Packets ffprobe reads in a file's first stream of a kind (`v` or `a`).
    static func packetCount(_ path: String, stream: String) async throws -> Int {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "\(stream):0", "-count_packets",
                                                        "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path])
        return firstNumber(output.text)
    }

    /// Frames ffprobe decodes in a file's first video stream — for an HLS playlist too, where ffprobe lists the
    /// stream twice (in its program and alone).
    static func decodedFrameCount(_ path: String) async throws -> Int {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                        "stream=nb_read_frames", "-of", "csv=p=0", path])
        return firstNumber(output.text)
    }

    /// The first line of ffprobe's output as a number, or -1.
    private static func firstNumber(_ text: String) -> Int {
        text.split(separator: "\n").first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
    }

    /// The presentation times (seconds) of a file's first video stream's packets, in file order.
    static func videoPacketTimes(_ path: String) async throws -> [Double] {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                                                        "-of", "csv=p=0", path])
        return output.text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The rows of a `framemd5` listing file: (video hashes, audio row count).
    static func framemd5(_ path: String, hasAudio: Bool) -> (video: [String], audio: Int) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (FrameMD5.hashes(text, stream: 0), hasAudio ? FrameMD5.hashes(text, stream: 1).count : 0)
    }
}

import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// What the live pipeline's tests share: a configuration every build can encode, the peers they check with, and
/// destinations that misbehave on purpose.
enum LiveTestSupport {
    /// Whether the oracles are here (with `CI=true` a missing one fails the run instead of skipping).
    static var toolsAvailable: Bool {
        ExternalTool.isRunnable("ffmpeg", "ffprobe") || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Whether an encoder keeps up with a camera paced in real time in this build: x264 (the FFmpeg engine). The
    /// native encoder in a debug build codes a few pictures a second on a loaded machine, so the tests that stream a
    /// real-time camera for seconds run in the FFmpeg build; the others run in every build.
    static var encodesInRealTime: Bool { CodecEngineRegistry.default.engines.contains { $0.name == "x264" } }

    /// Why a real-time test is skipped in this build.
    static let realTimeSkip: Comment = "streams a real-time camera: needs x264 (swift build --traits FFmpeg); the pure build's debug encoder is too slow"

    /// Whether this build encodes AAC (the FFmpeg engine); a pure build streams video alone.
    static var encodesAudio: Bool { CodecEngineRegistry.default.canEncode(.aac) }

    /// A configuration both engines take: Constrained Baseline, no B-frames, a key frame a second.
    static func video(width: Int = 128, height: Int = 96, bitRate: Int = 300_000) -> CompressionConfiguration {
        var configuration = CompressionConfiguration(codec: .h264, width: width, height: height,
                                                     profileLevel: ProfileLevel(profile: .constrainedBaseline))
        configuration.allowFrameReordering = false
        configuration.averageBitRate = bitRate
        configuration.maxKeyFrameInterval = 30
        return configuration
    }

    /// Frames ffprobe counts in a file's first video stream.
    static func videoFrameCount(_ path: String) async throws -> Int {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                        "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(output.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The md5 of each decoded picture of a file's video (ffmpeg `-f framemd5`), decoding strictly.
    static func pictureHashes(_ path: String) async throws -> [String] {
        let output = try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-map", "0:v:0",
                                                       "-f", "framemd5", "-"])
        return FrameMD5.hashes(output.text)
    }

    /// Collects a pipeline's events while it runs.
    static func collect(_ events: AsyncStream<LiveEvent>) -> Task<[LiveEvent], Never> {
        Task {
            var all: [LiveEvent] = []
            for await event in events { all.append(event) }
            return all
        }
    }
}

/// A destination whose link stalls: its first frame waits until ``release()``, then it delegates to another. Whatever
/// the encoder's speed, its queue fills behind the stalled frame and must drop.
final class StalledDestination: LiveDestination {
    private struct Gate {
        var isOpen = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    let inner: any LiveDestination
    private let gate = Mutex(Gate())
    var name: String { "stalled \(inner.name)" }
    var isLive: Bool { true }
    var tracks: LiveTracks { inner.tracks }

    init(_ inner: any LiveDestination) {
        self.inner = inner
    }

    /// Lets the stalled frame and every later one through.
    func release() {
        let waiter = gate.withLock { gate -> CheckedContinuation<Void, Never>? in
            gate.isOpen = true
            defer { gate.waiter = nil }
            return gate.waiter
        }
        waiter?.resume()
    }

    func open(_ stream: LiveStreamDescription) async throws { try await inner.open(stream) }

    func send(_ media: OutgoingMedia) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = gate.withLock { gate -> Bool in
                if gate.isOpen { return true }
                gate.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        try await inner.send(media)
    }

    func finish() async throws { try await inner.finish() }
}

/// A destination that fails when the stream starts, as a server that refuses the stream would.
final class RefusingDestination: LiveDestination {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "refused on purpose" }
    }

    let finishes = Atomic<Int>(0)
    var name: String { "refusing" }
    var isLive: Bool { true }

    func open(_ stream: LiveStreamDescription) async throws { throw Refusal() }
    func send(_ media: OutgoingMedia) async throws { Issue.record("a failed destination gets no frames") }
    func finish() async throws { finishes.add(1, ordering: .relaxed) }
}

/// A camera paced in real time whose pictures are noise (a cycle of 30 random pictures): content that fills any
/// bit rate, so that a lower target shows in the bits an encoder makes.
actor NoiseCamera: VideoSource {
    nonisolated let name = "noise camera"
    nonisolated let width: Int
    nonisolated let height: Int
    nonisolated let frameRate = 30.0
    nonisolated let format = PixelFormat.i420
    var droppedFrameCount: Int { 0 }

    private let pictures: [PixelBuffer]
    private var next = 0
    private var start: ContinuousClock.Instant?
    private var isStopped = false

    init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        var random = SplitMix64(seed: 2026)
        pictures = try (0..<30).map { _ in
            func plane(_ columns: Int, _ rows: Int, _ random: inout SplitMix64) -> PixelBuffer.Plane {
                var bytes = [UInt8](repeating: 0, count: columns * rows)
                for index in stride(from: 0, to: bytes.count, by: 8) {
                    var word = random.next()
                    for offset in index..<min(index + 8, bytes.count) {
                        bytes[offset] = 16 + UInt8(truncatingIfNeeded: word) % 220
                        word >>= 8
                    }
                }
                return PixelBuffer.Plane(bytes: bytes, bytesPerRow: columns, rowLength: columns, rowCount: rows)
            }
            return try PixelBuffer(width: width, height: height, format: .i420,
                                   planes: [plane(width, height, &random), plane(width / 2, height / 2, &random), plane(width / 2, height / 2, &random)])
        }
    }

    func nextFrame() async throws(CaptureError) -> CapturedFrame? {
        guard !isStopped, !Task.isCancelled else { return nil }
        let start = self.start ?? ContinuousClock.now
        self.start = start
        let index = next
        next += 1
        let due = start.advanced(by: .seconds(Double(index) / frameRate))
        while ContinuousClock.now < due, !isStopped {
            try? await Task.sleep(for: min(.milliseconds(20), due - ContinuousClock.now))
        }
        guard !isStopped else { return nil }
        return CapturedFrame(pixelBuffer: pictures[index % pictures.count], pts: MediaTime(value: Int64(index), timescale: 30),
                             duration: MediaTime(value: 1, timescale: 30))
    }

    func stop() async { isStopped = true }
}

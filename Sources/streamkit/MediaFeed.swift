import Capture
import Codecs
import Containers
import Foundation
import MediaCore
import Synchronization

/// One encoded item of a ``MediaFeed``.
enum FeedItem: Sendable {
    /// A compressed picture.
    case video(EncodedFrame)
    /// A compressed audio frame.
    case audio(EncodedAudioFrame)
}

/// Encodes a ``LiveInput`` in real time for a network sender (`stream`, `serve`): pictures through a
/// compression session and sound through the AAC encoder, each paced to its timestamps, handed on as
/// ``FeedItem``s. A file input can loop (its timestamps go on growing). Stops at the frame or time limit,
/// at the end of the input (unless looping) or on Ctrl-C, and always drains both encoders.
struct MediaFeed: Sendable {
    /// What to encode.
    let input: LiveInput
    /// The video encoding.
    var options: EncodingOptions
    /// The layout of a raw `.yuv` input.
    var pixelFormat: PixelFormat = .i420
    /// Whether a file input starts again at its end.
    var loops = false
    /// The most video frames (the time limit for audio-only inputs follows `seconds`).
    var frameLimit: Int?
    /// The longest run in seconds, if any.
    var seconds: Double?
    /// The sine and microphone sample rate.
    var sampleRate = 48_000
    /// The sine and microphone channel count.
    var channelCount = 2
    /// Called with the video compression session once it runs, for a sender that reconfigures it live
    /// (`publish`: adaptive bitrate, forced key frames).
    var onVideoSession: (@Sendable (CompressionSession) -> Void)?

    /// What a finished feed did.
    struct Totals: Sendable {
        /// Video frames encoded.
        var videoFrames = 0
        /// Audio frames encoded.
        var audioFrames = 0
        /// The encoder names, for the status line.
        var engines: [String] = []
    }

    /// The audio format the feed will produce, known before the first frame (SDP needs it).
    /// - Returns: the AAC format, or `nil` for a video-only input.
    /// - Throws: if the input or the encoder cannot be opened.
    func audioSession() throws -> AudioEncoderSession? {
        guard input.hasAudio else { return nil }
        if input.hasVideo, !EngineSetup.registry().canEncode(.aac) {
            // The camera's microphone in a build without an AAC encoder: the video goes on alone.
            printError(AudioNotice.videoAlone)
            return nil
        }
        var rate = sampleRate, channels = channelCount
        if case let .wav(path) = input {
            let reader = try WAVReader(path: path)
            rate = reader.format.sampleRate
            channels = reader.format.channelCount
        }
        let configuration = AudioEncoderConfiguration(sampleRate: rate, channelCount: channels, bitRate: options.audioBitRate)
        return try AudioEncoderSession(configuration: configuration, registry: EngineSetup.registry())
    }

    /// Runs the feed.
    /// - Parameters:
    ///   - audio: the AAC session from ``audioSession()`` (audio inputs), so its format was known early.
    ///   - deliver: called with every encoded item, in order per medium.
    /// - Returns: what was encoded.
    /// - Throws: the first input, encoder or delivery failure.
    func run(audio: AudioEncoderSession?, deliver: @escaping @Sendable (FeedItem) async -> Void) async throws -> Totals {
        let videoDone = Atomic<Bool>(!input.hasVideo)
        let start = ContinuousClock.now
        var totals = Totals()
        async let videoCount: (Int, String?) = input.hasVideo ? runVideo(start: start, deliver: deliver, done: videoDone) : (0, nil)
        var audioResult: Result<(Int, String), any Error> = .success((0, ""))
        if let audio {
            do {
                audioResult = .success((try await runAudio(session: audio, start: start, deliver: deliver, videoDone: videoDone), audio.engineName))
            } catch {
                audioResult = .failure(error)
            }
        }
        let video = try await videoCount
        totals.videoFrames = video.0
        if let name = video.1 { totals.engines.append(name) }
        let (audioFrames, audioEngine) = try audioResult.get()
        totals.audioFrames = audioFrames
        if audio != nil { totals.engines.append(audioEngine) }
        return totals
    }

    /// Whether the run must end now.
    private func isOver(elapsed seconds: Double) -> Bool {
        Interruption.isRequested || self.seconds.map { seconds >= $0 } ?? false
    }

    // MARK: - Video

    private enum PictureSource {
        case y4m(Y4MReader<FileByteSource>)
        case raw(RawVideoReader<FileByteSource>)
        case live(any VideoSource)

        /// The next picture, with the capture time a live source gives it (files have none: their frames count).
        mutating func next() async throws -> (picture: PixelBuffer, pts: MediaTime?)? {
            switch self {
            case var .y4m(reader):
                let picture = try reader.nextFrame()
                self = .y4m(reader)
                return picture.map { ($0, nil) }
            case var .raw(reader):
                let picture = try reader.nextFrame()
                self = .raw(reader)
                return picture.map { ($0, nil) }
            case let .live(camera):
                return try await camera.nextFrame().map { ($0.pixelBuffer, $0.pts) }
            }
        }
    }

    private func openPictures(_ options: inout EncodingOptions) throws -> PictureSource {
        switch input {
        case let .y4m(path):
            let reader = try Y4MReader(path: path)
            options.adopt(reader.header)
            return .y4m(reader)
        case let .rawVideo(path):
            return .raw(try RawVideoReader(path: path, width: options.width, height: options.height, format: pixelFormat))
        case .camera:
            let selection = try defaultVideoSource(width: options.width, height: options.height, fps: options.fps)
            printError("camera: \(selection.reason)")
            return .live(selection.source)
        default:
            return .live(try SyntheticCamera(width: options.width, height: options.height, frameRate: options.fps,
                                             format: pixelFormat, realTime: true))
        }
    }

    private func runVideo(start: ContinuousClock.Instant, deliver: @escaping @Sendable (FeedItem) async -> Void,
                          done: borrowing Atomic<Bool>) async throws -> (Int, String?) {
        defer { done.store(true, ordering: .relaxed) }
        var options = self.options
        var source = try openPictures(&options)
        var configuration = options.compressionConfiguration
        configuration.realTime = true
        let session = try CompressionSession(configuration: configuration, registry: EngineSetup.registry())
        onVideoSession?(session)
        let consumer = Task { () -> Int in
            var count = 0
            for await item in session.outputs {
                guard case let .frame(frame) = item else { continue }
                await deliver(.video(frame))
                count += 1
            }
            return count
        }
        let fps = options.fps
        let frameDuration = MediaTime(value: 1, timescale: Int32(fps))
        var index: Int64 = 0
        var failure: (any Error)?
        do {
            while frameLimit.map({ index < $0 }) ?? true, !isOver(elapsed: Double(index) / Double(fps)) {
                guard let (picture, capturedAt) = try await source.next() else {
                    guard loops, input.isFile, index > 0 else { break }
                    var reopened = options
                    source = try openPictures(&reopened)
                    continue
                }
                if input.isFile {
                    // A file goes out at its own rate, as a camera would deliver it.
                    try await Task.sleep(until: start.advanced(by: .seconds(Double(index) / Double(fps))), clock: .continuous)
                }
                // A live source's own capture time keeps video on the microphone's clock even when the camera
                // drops frames the encoder was too slow to take; a file's frames are counted.
                let pts = capturedAt ?? MediaTime(value: index, timescale: Int32(fps))
                try await session.encode(picture, pts: pts, duration: frameDuration)
                index += 1
            }
        } catch {
            failure = error
        }
        if case let .live(camera) = source { await camera.stop() }
        do { _ = try await session.close() } catch { failure = failure ?? error }
        let count = await consumer.value
        if let failure { throw failure }
        return (count, session.engineName)
    }

    // MARK: - Audio

    private func runAudio(session: AudioEncoderSession, start: ContinuousClock.Instant,
                          deliver: @escaping @Sendable (FeedItem) async -> Void, videoDone: borrowing Atomic<Bool>) async throws -> Int {
        let rate = session.configuration.sampleRate
        var wav: WAVReader<FileByteSource>?
        var live: (any AudioSource)?
        switch input {
        case let .wav(path): wav = try WAVReader(path: path)
        case .camera:
            let selection = try defaultAudioSource(sampleRate: rate, channels: session.configuration.channelCount)
            printError("microphone: \(selection.reason)")
            live = selection.source
        default:
            live = try SyntheticMicrophone(sampleRate: rate, channelCount: session.configuration.channelCount, realTime: true)
        }
        let consumer = Task { () -> Int in
            var count = 0
            for await frame in session.outputs {
                await deliver(.audio(frame))
                count += 1
            }
            return count
        }
        // Without a limit of its own, audio that goes with video ends with the video.
        let limit = seconds ?? (input.hasVideo ? nil : (frameLimit == nil ? nil : Double(frameLimit ?? 0) / Double(options.fps)))
        var samples = 0
        var failure: (any Error)?
        do {
            while !Interruption.isRequested {
                if input.hasVideo, videoDone.load(ordering: .relaxed) { break }
                let elapsed = Double(samples) / Double(rate)
                if let limit, elapsed >= limit { break }
                var buffer: AudioBuffer?
                if var reader = wav {
                    buffer = try reader.read(maxFrameCount: 1024)
                    if buffer == nil, loops, samples > 0, case let .wav(path) = input {
                        reader = try WAVReader(path: path)
                        buffer = try reader.read(maxFrameCount: 1024)
                    }
                    wav = reader
                    try await Task.sleep(until: start.advanced(by: .seconds(elapsed)), clock: .continuous)
                } else if let live {
                    buffer = try await live.nextBuffer()?.buffer
                }
                guard var buffer else { break }
                if let limit {
                    let room = Int((limit * Double(rate)).rounded()) - samples
                    if room < buffer.frameCount { buffer = try buffer.prefix(frameCount: max(1, room)) }
                }
                samples += buffer.frameCount
                try await session.encode(buffer)
            }
        } catch {
            failure = error
        }
        if let live { await live.stop() }
        do { _ = try await session.close() } catch { failure = failure ?? error }
        let count = await consumer.value
        if let failure { throw failure }
        return count
    }
}

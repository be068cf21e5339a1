import Capture
import Codecs
import Containers
import Foundation
import MediaCore
import Synchronization

/// `streamkit record`: the seeds' demo — camera and microphone (V4L2/ALSA where present, the synthetic
/// ones otherwise, and it says which) → H.264/H.265 compression session + AAC encoder → an Annex B file
/// with parameter sets before every key frame and an ADTS file. Stops after `--frames` frames or on
/// Ctrl-C, and always finishes both files.
struct RecordCommand {
    static let usage = """
        usage: streamkit record [-o test.h264] [--audio-output test.aac] [--frames 200] [--codec h264|hevc]
                                [--size 640x480] [--fps 30] [--bitrate 800k] [--gop 30] [--profile baseline|main|high]
                                [--bframes N] [--engine auto|x264|x265|hardware|native] [--camera DEVICE] [--microphone DEVICE]
        """

    let options: EncodingOptions
    let videoPath: String
    let audioPath: String?
    let frameCount: Int
    let camera: String?
    let microphone: String?
    let sampleRate = 44_100
    let channelCount = 1

    /// Parses the command's arguments.
    /// - Parameter words: the words after `record`.
    /// - Throws: ``CommandLineError``.
    init(_ words: [String]) throws(CommandLineError) {
        let arguments = try CommandLineArguments(words, valueOptions: EncodingOptions.valueOptions)
        try arguments.rejectUnknown(allowedFlags: ["no-audio"], allowedOptions: [
            "output", "audio-output", "frames", "codec", "size", "fps", "bitrate", "gop", "profile", "bframes", "engine",
            "camera", "microphone", "audio-bitrate",
        ])
        guard arguments.positionals.isEmpty else { throw .invalidValue("record takes no file argument (use -o)\n\(Self.usage)") }
        var options = try EncodingOptions(arguments, defaultBitRate: 800_000)
        if arguments.options["gop"] == nil { options.gop = options.fps }
        self.options = options
        videoPath = arguments.options["output"] ?? (options.codec == .hevc ? "test.h265" : "test.h264")
        audioPath = arguments.flags.contains("no-audio") ? nil : arguments.options["audio-output"] ?? "test.aac"
        let frames = arguments.options["frames"] ?? "200"
        guard let count = Int(frames), count > 0 else { throw .invalidValue("--frames \(frames): expected a positive count") }
        frameCount = count
        camera = arguments.options["camera"]
        microphone = arguments.options["microphone"]
    }

    /// Runs the recording.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        let registry = EngineSetup.registry()
        let video: DeviceSelection<any VideoSource>
        let audio: DeviceSelection<any AudioSource>?
        let compression: CompressionSession
        let audioEncoder: AudioEncoderSession?
        do {
            compression = try CompressionSession(configuration: options.compressionConfiguration, registry: registry)
            audioEncoder = try audioPath.map { _ in
                let configuration = AudioEncoderConfiguration(sampleRate: sampleRate, channelCount: channelCount, bitRate: options.audioBitRate)
                return try AudioEncoderSession(configuration: configuration, registry: registry)
            }
            video = try defaultVideoSource(width: options.width, height: options.height, fps: options.fps, device: camera)
            audio = try audioPath.map { _ in try defaultAudioSource(sampleRate: sampleRate, channels: channelCount, device: microphone) }
        } catch let error as CodecError {
            printError("streamkit record: \(error)")
            return 1
        } catch {
            printError("streamkit record: \(error)")
            return 1
        }
        printError("camera: \(video.reason)")
        if let audio { printError("microphone: \(audio.reason)") }
        printError("encoder: \(compression.engineName)\(compression.isHardware ? " (hardware)" : "") \(options.codec.rawValue) "
            + "\(options.width)x\(options.height)@\(options.fps)\(audioEncoder.map { ", audio: \($0.engineName) AAC-LC \(sampleRate) Hz" } ?? "")")

        Interruption.install()
        let progress = ProgressLine(label: "recording", totalFrames: frameCount, frameRate: Double(options.fps))
        let videoDone = Atomic<Bool>(false)
        let duration = Double(frameCount) / Double(options.fps)
        let videoSource = video.source
        let frameCount = self.frameCount
        let videoPath = self.videoPath
        async let videoResult = Self.recordVideo(from: videoSource, session: compression, to: videoPath, frames: frameCount,
                                                 progress: progress, done: videoDone)
        var audioResult: Result<Int, any Error> = .success(0)
        if let audio, let audioEncoder, let audioPath {
            audioResult = await Self.recordAudio(from: audio.source, session: audioEncoder, to: audioPath, seconds: duration,
                                                 progress: progress, videoDone: videoDone)
        }
        let videoOutcome = await videoResult
        progress.finish()
        await videoSource.stop()
        if let audio { await audio.source.stop() }

        var status: Int32 = 0
        switch videoOutcome {
        case let .success(frames):
            let counts = compression.counts
            printError("wrote \(frames) frames to \(videoPath)"
                + (counts.dropped > 0 ? " (\(counts.dropped) dropped by the encoder)" : ""))
            let dropped = await videoSource.droppedFrameCount
            if dropped > 0 {
                printError("the camera dropped \(dropped) frames the encoder was too slow to take")
            }
        case let .failure(error):
            printError("streamkit record: video: \(error)")
            status = 1
        }
        switch audioResult {
        case let .success(frames) where audioPath != nil:
            printError("wrote \(frames) AAC frames to \(audioPath ?? "")")
        case .success: break
        case let .failure(error):
            printError("streamkit record: audio: \(error)")
            status = 1
        }
        if Interruption.isRequested { printError("stopped by the user; both files are complete up to that point") }
        return status
    }

    /// Pulls camera frames into the compression session and the Annex B file until `frames` frames,
    /// the end of the source, or Ctrl-C; always flushes the session and finishes the file.
    private static func recordVideo(from source: any VideoSource, session: CompressionSession, to path: String, frames: Int,
                                    progress: ProgressLine, done: borrowing Atomic<Bool>) async -> Result<Int, any Error> {
        defer { done.store(true, ordering: .relaxed) }
        let writer: AnnexBWriter<FileByteSink>
        do { writer = try AnnexBWriter(path: path) } catch { return .failure(error) }
        // The session's outputs are written on a task of their own while this one feeds the session.
        let consumer = Task { () -> (written: Int, failure: (any Error)?) in
            var output = writer
            var written = 0
            var failure: (any Error)?
            for await item in session.outputs {
                guard case let .frame(frame) = item, failure == nil else { continue }
                do {
                    try output.write(frame)
                    written += 1
                    progress.videoFrame(bytes: frame.data.count)
                } catch {
                    failure = error
                }
            }
            do { try output.finish() } catch { failure = failure ?? error }
            return (written, failure)
        }
        var failure: (any Error)?
        do {
            var captured = 0
            while captured < frames, !Interruption.isRequested {
                guard let frame = try await source.nextFrame() else { break }
                try await session.encode(frame.pixelBuffer, pts: frame.pts, duration: frame.duration)
                captured += 1
            }
        } catch {
            failure = error
        }
        do { _ = try await session.close() } catch { failure = failure ?? error }
        let written = await consumer.value
        if let failure = failure ?? written.failure { return .failure(failure) }
        return .success(written.written)
    }

    /// Pulls microphone buffers into the AAC encoder and the ADTS file until `seconds` of audio, the end
    /// of the video, or Ctrl-C; always flushes the encoder and finishes the file.
    private static func recordAudio(from source: any AudioSource, session: AudioEncoderSession, to path: String, seconds: Double,
                                    progress: ProgressLine, videoDone: borrowing Atomic<Bool>) async -> Result<Int, any Error> {
        let writer: ADTSWriter<FileByteSink>
        do { writer = try ADTSWriter(path: path) } catch { return .failure(error) }
        let consumer = Task { () -> (written: Int, failure: (any Error)?) in
            var output = writer
            var written = 0
            var failure: (any Error)?
            for await frame in session.outputs where failure == nil {
                do {
                    try output.write(frame)
                    written += 1
                    progress.audioFrames(1)
                } catch {
                    failure = error
                }
            }
            do { try output.finish() } catch { failure = failure ?? error }
            return (written, failure)
        }
        var failure: (any Error)?
        do {
            let target = Int((seconds * Double(session.configuration.sampleRate)).rounded())
            var samples = 0
            while samples < target, !Interruption.isRequested {
                if videoDone.load(ordering: .relaxed) && samples > 0 { break }
                guard let captured = try await source.nextBuffer() else { break }
                let buffer = try captured.buffer.prefix(frameCount: target - samples)
                samples += buffer.frameCount
                try await session.encode(buffer)
            }
        } catch {
            failure = error
        }
        do { _ = try await session.close() } catch { failure = failure ?? error }
        let written = await consumer.value
        if let failure = failure ?? written.failure { return .failure(failure) }
        return .success(written.written)
    }
}

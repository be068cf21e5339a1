import Capture
import Codecs
import Containers
import Foundation
import MediaCore
import Synchronization

/// `streamkit record`: the seeds' demo — camera and microphone (V4L2/ALSA where present, the synthetic
/// ones otherwise, and it says which) → H.264/H.265 compression session + AAC encoder → an Annex B file
/// with parameter sets before every key frame and an ADTS file — or, with `-o x.mp4`, one MP4 file
/// holding both (fragmented, so a crash leaves it playable up to its last fragment; `--no-fragments`
/// for a classic one). Stops after `--frames` frames or on Ctrl-C, and always finishes the files.
struct RecordCommand {
    // MARK: - Declaration

    /// `--audio-output PATH`.
    static let audioOutput = OptionSpec("--audio-output", value: "PATH", help: "the ADTS file the microphone goes to",
                                        default: "test.aac", parse: OptionValueParsers.text)
    /// `--no-audio`.
    static let noAudio = OptionSpec(flag: "--no-audio", help: "record the camera only")
    /// `--camera DEVICE`.
    static let camera = OptionSpec("--camera", value: "DEVICE", help: "the V4L2 camera, for example /dev/video0",
                                   shown: "the first camera, else the synthetic one", parse: OptionValueParsers.text)
    /// `--microphone DEVICE`.
    static let microphone = OptionSpec("--microphone", value: "DEVICE", help: "the ALSA microphone, for example hw:0",
                                       shown: "the first microphone, else the synthetic one", parse: OptionValueParsers.text)

    /// The command's options.
    static let table = OptionTable(
        command: "record", summary: "camera + microphone → test.h264 + test.aac, or one .mp4 (the seeds' demo)",
        options: [
            CommonOptions.output.documentingDefault("test.h264, test.h265 with --codec hevc; .mp4/.m4v/.mov: one MP4 with both; .flv: one FLV with both; .m3u8: HLS"),
            audioOutput, noAudio, MP4OutputOptions.noFragments, MP4OutputOptions.faststart, MP4OutputOptions.fragmentDuration,
            HLSOutputOptions.segmentDuration, HLSOutputOptions.playlistSize,
            CommonOptions.frames.defaulting(to: 200),
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer,
            EncodingOptions.gop,
            EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, EncodingOptions.audioBitRate, camera, microphone,
        ],
        notes: ["Stops after --frames frames or on Ctrl-C, and always finishes both files.",
                "An .mp4 output is fragmented: killed at any moment, it plays up to its last fragment.",
                "An .m3u8 output is HLS: init.mp4, segment_NNNNN.m4s and the playlist, in the playlist's folder."])

    let options: EncodingOptions
    let videoPath: String
    let audioPath: String?
    /// Whether `--audio-output` was given: then a build without an AAC encoder fails instead of recording video alone.
    let isAudioAskedFor: Bool
    /// The MP4 layout when the output is an MP4 file (audio then goes into it too).
    let mp4Layout: MP4Output.Layout?
    /// The HLS writer's configuration when the output is a playlist (audio then goes into it too).
    let hlsConfiguration: HLSWriter.Configuration?
    let frameCount: Int
    let camera: String?
    let microphone: String?
    let sampleRate = 44_100
    let channelCount = 1

    /// Reads the command's options.
    /// - Parameter parsed: the words after `record`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let options = try EncodingOptions(parsed)
        self.options = options
        videoPath = parsed.given(CommonOptions.output) ?? (options.codec == .hevc ? "test.h265" : "test.h264")
        if MP4OutputOptions.isMP4(videoPath) {
            mp4Layout = try MP4OutputOptions.layout(parsed)
            if parsed.isGiven(Self.audioOutput) { throw .conflict("--audio-output does not go with an MP4 output: the audio goes into \(videoPath)") }
        } else if HLSOutputOptions.isPlaylist(videoPath) {
            mp4Layout = nil
            if parsed.isGiven(Self.audioOutput) { throw .conflict("--audio-output does not go with an HLS output: the audio goes into its segments") }
        } else if FLVOutputOptions.isFLV(videoPath) {
            mp4Layout = nil
            if parsed.isGiven(Self.audioOutput) { throw .conflict("--audio-output does not go with an FLV output: the audio goes into \(videoPath)") }
            if let name = parsed.firstGiven(among: [MP4OutputOptions.noFragments, MP4OutputOptions.faststart, MP4OutputOptions.fragmentDuration]) {
                throw .conflict("\(name) applies to an .mp4 output, not \(videoPath)")
            }
        } else {
            mp4Layout = nil
            if let name = parsed.firstGiven(among: [MP4OutputOptions.noFragments, MP4OutputOptions.faststart, MP4OutputOptions.fragmentDuration]) {
                throw .conflict("\(name) applies to an .mp4 output, not \(videoPath)")
            }
        }
        try HLSOutputOptions.rejectUnlessPlaylist(parsed, output: videoPath)
        hlsConfiguration = HLSOutputOptions.isPlaylist(videoPath) ? HLSOutputOptions.configuration(for: videoPath, parsed, growing: true) : nil
        if parsed.isSet(Self.noAudio) {
            if let name = parsed.firstGiven(among: [Self.audioOutput, EncodingOptions.audioBitRate, Self.microphone]) {
                throw .conflict("\(name) does not go with --no-audio")
            }
            audioPath = nil
        } else {
            audioPath = try parsed.required(Self.audioOutput)
        }
        isAudioAskedFor = parsed.isGiven(Self.audioOutput)
        frameCount = try parsed.required(CommonOptions.frames)
        camera = parsed.given(Self.camera)
        microphone = parsed.given(Self.microphone)
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
            // A build without an AAC encoder records the camera alone, unless an audio file was asked for by name.
            let recordsAudio = audioPath != nil && (isAudioAskedFor || registry.canEncode(.aac))
            if audioPath != nil, !recordsAudio { printError(AudioNotice.videoAlone) }
            audioEncoder = try (recordsAudio ? audioPath : nil).map { _ in
                let configuration = AudioEncoderConfiguration(sampleRate: sampleRate, channelCount: channelCount, bitRate: options.audioBitRate)
                return try AudioEncoderSession(configuration: configuration, registry: registry)
            }
            video = try defaultVideoSource(width: options.width, height: options.height, fps: options.fps, device: camera)
            audio = try (recordsAudio ? audioPath : nil).map { _ in
                try defaultAudioSource(sampleRate: sampleRate, channels: channelCount, device: microphone)
            }
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
        let mp4 = mp4Layout.map { MP4Output(path: videoPath, layout: $0, hasVideo: true, audioFormat: audioEncoder?.format) }
        let hls = hlsConfiguration.map { HLSOutput(path: videoPath, configuration: $0, hasVideo: true, audioFormat: audioEncoder?.format) }
        let flv = FLVOutputOptions.isFLV(videoPath)
            ? FLVOutput(path: videoPath, hasVideo: true, audioFormat: audioEncoder?.format, frameRate: Double(options.fps)) : nil
        let videoOutput: @Sendable () throws -> any EncodedFrameOutput = {
            if let flv { return flv.videoTrack }
            if let mp4 { return mp4.videoTrack }
            if let hls { return hls.videoTrack }
            return try AnnexBWriter(path: videoPath)
        }
        async let videoResult = Self.recordVideo(from: videoSource, session: compression, to: videoOutput, frames: frameCount,
                                                 progress: progress, done: videoDone)
        var audioResult: Result<Int, any Error> = .success(0)
        if let audio, let audioEncoder, let audioPath = mp4 == nil && hls == nil && flv == nil ? audioPath : videoPath {
            let audioOutput: @Sendable () throws -> any EncodedAudioFrameOutput = {
                if let flv { return flv.audioTrack }
                if let mp4 { return mp4.audioTrack }
                if let hls { return hls.audioTrack }
                return try ADTSWriter(path: audioPath)
            }
            audioResult = await Self.recordAudio(from: audio.source, session: audioEncoder, to: audioOutput, seconds: duration,
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
                + (counts.dropped > 0 ? " (\(counts.dropped) dropped by the encoder)" : "")
                + (mp4.map { $0.fragmentCount > 0 ? " in \($0.fragmentCount) fragments" : "" } ?? "")
                + (hls.map { " in \($0.segmentCount) segments" } ?? ""))
            let dropped = await videoSource.droppedFrameCount
            if dropped > 0 {
                printError("the camera dropped \(dropped) frames the encoder was too slow to take")
            }
        case let .failure(error):
            printError("streamkit record: video: \(error)")
            status = 1
        }
        switch audioResult {
        case let .success(frames) where audioEncoder != nil:
            printError("wrote \(frames) AAC frames to \(mp4 == nil && hls == nil && flv == nil ? audioPath ?? "" : videoPath)")
        case .success: break
        case let .failure(error):
            printError("streamkit record: audio: \(error)")
            status = 1
        }
        if Interruption.isRequested { printError("stopped by the user; both files are complete up to that point") }
        return status
    }

    /// Pulls camera frames into the compression session and the output (an Annex B file or an MP4's
    /// video track) until `frames` frames, the end of the source, or Ctrl-C; always flushes the
    /// session and finishes the output.
    private static func recordVideo(from source: any VideoSource, session: CompressionSession,
                                    to makeOutput: @Sendable () throws -> any EncodedFrameOutput, frames: Int,
                                    progress: ProgressLine, done: borrowing Atomic<Bool>) async -> Result<Int, any Error> {
        defer { done.store(true, ordering: .relaxed) }
        let writer: any EncodedFrameOutput
        do { writer = try makeOutput() } catch { return .failure(error) }
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

    /// Pulls microphone buffers into the AAC encoder and the output (an ADTS file or an MP4's audio
    /// track) until `seconds` of audio, the end of the video, or Ctrl-C; always flushes the encoder
    /// and finishes the output.
    private static func recordAudio(from source: any AudioSource, session: AudioEncoderSession,
                                    to makeOutput: @Sendable () throws -> any EncodedAudioFrameOutput, seconds: Double,
                                    progress: ProgressLine, videoDone: borrowing Atomic<Bool>) async -> Result<Int, any Error> {
        let writer: any EncodedAudioFrameOutput
        do { writer = try makeOutput() } catch { return .failure(error) }
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

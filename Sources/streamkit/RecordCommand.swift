import Capture
import Containers
import Foundation
import Live

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
            CommonOptions.output.documentingDefault("test.h264, test.h265 with --codec hevc; .mp4/.m4v/.mov: one MP4 with both; .flv: one FLV with both; .ts: one MPEG-TS with both; .m3u8: HLS"),
            audioOutput, noAudio, MP4OutputOptions.noFragments, MP4OutputOptions.faststart, MP4OutputOptions.fragmentDuration,
            HLSOutputOptions.segmentDuration, HLSOutputOptions.playlistSize, HLSOutputOptions.segmentFormat,
            CommonOptions.frames.defaulting(to: 200),
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads,
            EncodingOptions.gop,
            EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, EncodingOptions.audioBitRate, camera, microphone,
        ],
        notes: ["Stops after --frames frames or on Ctrl-C, and always finishes both files.",
                "An .mp4 output is fragmented: killed at any moment, it plays up to its last fragment.",
                "An .m3u8 output is HLS: init.mp4, segment_NNNNN.m4s and the playlist, in the playlist's folder",
                "(with --segment-format ts: segment_NNNNN.ts and the playlist)."])

    let options: EncodingOptions
    let videoPath: String
    let audioPath: String?
    /// Whether `--audio-output` was given: then a build without an AAC encoder fails instead of recording video alone.
    let isAudioAskedFor: Bool
    /// The MP4 layout when the output is an MP4 file (audio then goes into it too).
    let mp4Layout: MP4FileDestination.Layout?
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
        let isOneFile = MP4OutputOptions.isMP4(videoPath) || HLSOutputOptions.isPlaylist(videoPath) || FLVOutputOptions.isFLV(videoPath)
            || Self.isTS(videoPath)
        if isOneFile, parsed.isGiven(Self.audioOutput) {
            throw .conflict("--audio-output does not go with \(videoPath): the audio goes into it")
        }
        if MP4OutputOptions.isMP4(videoPath) {
            mp4Layout = try MP4OutputOptions.layout(parsed)
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
            audioPath = isOneFile ? videoPath : try parsed.required(Self.audioOutput)
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
        // A build without an AAC encoder records the camera alone, unless an audio file was asked for by name.
        if audioPath != nil, !registry.canEncode(.aac) {
            guard !isAudioAskedFor else {
                printError("streamkit record: this build has no AAC encoder for \(audioPath ?? ""); build with --traits FFmpeg")
                return 1
            }
            printError(AudioNotice.videoAlone)
        }
        let recordsAudio = audioPath != nil && registry.canEncode(.aac)
        let pipeline: LivePipeline
        let cameraSource: any VideoSource
        do {
            let video = try defaultVideoSource(width: options.width, height: options.height, fps: options.fps, device: camera)
            printError("camera: \(video.reason)")
            cameraSource = video.source
            let audio = try recordsAudio ? defaultAudioSource(sampleRate: sampleRate, channels: channelCount, device: microphone) : nil
            if let audio { printError("microphone: \(audio.reason)") }
            var configuration = LiveConfiguration(video: options.compressionConfiguration, audioBitRate: options.audioBitRate,
                                                  adaptation: nil, registry: registry)
            configuration.frameLimit = frameCount
            pipeline = LivePipeline(video: video.source, audio: audio?.source, configuration: configuration)
        } catch {
            printError("streamkit record: \(error)")
            return 1
        }
        for destination in destinations(recordsAudio: recordsAudio) { pipeline.add(destination, options: .recording()) }
        printError("encoder: \(options.codec.rawValue) \(options.width)x\(options.height)@\(options.fps)"
            + (recordsAudio ? ", audio: AAC-LC \(sampleRate) Hz" : ""))
        let report: LiveReport
        do {
            report = try await LiveLaunch.run(pipeline, label: "record")
        } catch {
            printError("streamkit record: \(error)")
            return 1
        }
        var status: Int32 = 0
        for destination in report.destinations {
            if let failure = destination.failure {
                printError("streamkit record: \(destination.name): \(failure)")
                status = 1
            } else if destination.name == audioPath, destination.name != videoPath {
                printError("wrote \(destination.audioFramesSent) AAC frames to \(destination.name)")
            } else {
                printError("wrote \(destination.videoFramesSent) frames to \(destination.name)"
                    + (recordsAudio && destination.name == audioPath ? " and \(destination.audioFramesSent) AAC frames" : ""))
            }
        }
        let dropped = await cameraSource.droppedFrameCount
        if dropped > 0 {
            // The audio lasts as long as the pictures' own times: the dropped frames' time too.
            printError("the camera dropped \(dropped) frames the encoder was too slow to take")
        }
        if report.picturesEncoded < report.picturesCaptured {
            printError("the encoder dropped \(report.picturesCaptured - report.picturesEncoded) frames")
        }
        if Interruption.isRequested { printError("stopped by the user; the files are complete up to that point") }
        return status
    }

    /// The files: one MP4, HLS or FLV with both tracks, or an Annex B file and an ADTS file.
    private func destinations(recordsAudio: Bool) -> [any LiveDestination] {
        if let mp4Layout { return [MP4FileDestination(path: videoPath, layout: mp4Layout)] }
        if let hlsConfiguration { return [HLSDestination(configuration: hlsConfiguration)] }
        if FLVOutputOptions.isFLV(videoPath) { return [FLVFileDestination(path: videoPath)] }
        if Self.isTS(videoPath) { return [TSFileDestination(path: videoPath)] }
        var files: [any LiveDestination] = [AnnexBFileDestination(path: videoPath)]
        if recordsAudio, let audioPath { files.append(ADTSFileDestination(path: audioPath)) }
        return files
    }

    /// Whether a path names an MPEG-TS file (`.ts`, any case).
    static func isTS(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "ts"
    }
}

import Containers
import Foundation
import MediaCore
import Synchronization

/// The MP4 options of `record`, and which outputs are MP4 files.
enum MP4OutputOptions {
    /// `--no-fragments`.
    static let noFragments = OptionSpec(flag: "--no-fragments",
                                        help: "a classic MP4, its index written at the end (a crash leaves no playable file)")
    /// `--faststart`.
    static let faststart = OptionSpec(flag: "--faststart", help: "with --no-fragments: the index before the samples (moved there at the end)")
    /// `--fragment-duration MS`.
    static let fragmentDuration = OptionSpec("--fragment-duration", value: "MS",
                                             help: "the shortest MP4 fragment; each starts at a key frame",
                                             shown: "0, a fragment per key frame", parse: OptionValueParsers.wholeNumber(in: 0...600_000))

    /// The extensions written as MP4.
    static let extensions: Set<String> = ["mp4", "m4v", "mov", "m4a"]

    /// Whether `path` names an MP4 file.
    static func isMP4(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// The layout the options ask for.
    /// - Parameter parsed: the command's options.
    /// - Returns: the layout.
    /// - Throws: ``CommandLineError/conflict(_:)`` for `--faststart` or `--fragment-duration` with the wrong kind.
    static func layout(_ parsed: ParsedOptions) throws(CommandLineError) -> MP4Output.Layout {
        if parsed.isSet(noFragments) {
            if parsed.isGiven(fragmentDuration) { throw .conflict("--fragment-duration does not go with --no-fragments") }
            return .classic(MP4WriterOptions(faststart: parsed.isSet(faststart)))
        }
        if parsed.isSet(faststart) { throw .conflict("--faststart needs --no-fragments (a fragmented MP4 has its index first already)") }
        let milliseconds = parsed.given(fragmentDuration) ?? 0
        return .fragmented(FragmentedMP4Options(fragmentDuration: milliseconds > 0 ? MediaTime(value: Int64(milliseconds), timescale: 1000) : nil))
    }
}

/// One MP4 file that a video task and an audio task write to at the same time.
///
/// The file is made when the first picture arrives (its format holds the parameter sets); AAC
/// frames that come before it wait (at most ``maximumWaitingAudioFrames``). The file is finished
/// when every track's output has finished.
final class MP4Output: Sendable {
    /// Fragmented (the default of `record`) or classic.
    enum Layout: Sendable {
        case fragmented(FragmentedMP4Options)
        case classic(MP4WriterOptions)
    }

    /// The most AAC frames that wait for the first picture (about 40 s at 48 kHz).
    static let maximumWaitingAudioFrames = 2048

    private enum Writer {
        case waiting
        case fragmented(FragmentedMP4Writer<FileByteSink>)
        case classic(MP4Writer<FileByteSink>)
        case finished
    }

    private struct State {
        var writer: Writer = .waiting
        var waitingAudio: [EncodedAudioFrame] = []
        var openTracks: Int
        var fragments = 0
    }

    /// The file's path.
    let path: String
    private let layout: Layout
    private let hasVideo: Bool
    private let audioFormat: AudioFormatDescription?
    private let state: Mutex<State>

    /// Prepares an MP4 output.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - layout: fragmented or classic.
    ///   - hasVideo: whether a video track comes.
    ///   - audioFormat: the audio track's format, if there is one.
    init(path: String, layout: Layout, hasVideo: Bool, audioFormat: AudioFormatDescription?) {
        self.path = path
        self.layout = layout
        self.hasVideo = hasVideo
        self.audioFormat = audioFormat
        state = Mutex(State(openTracks: (hasVideo ? 1 : 0) + (audioFormat == nil ? 0 : 1)))
    }

    /// The number of fragments written so far (fragmented layout).
    var fragmentCount: Int { state.withLock { $0.fragments } }

    /// The video track, as an output of its own.
    var videoTrack: VideoTrack { VideoTrack(file: self) }

    /// The audio track, as an output of its own.
    var audioTrack: AudioTrack { AudioTrack(file: self) }

    /// The video track of an ``MP4Output``.
    struct VideoTrack: EncodedFrameOutput, Sendable {
        let file: MP4Output
        func write(_ frame: EncodedFrame) throws { try file.write(frame) }
        func finish() throws { try file.trackFinished() }
    }

    /// The audio track of an ``MP4Output``.
    struct AudioTrack: EncodedAudioFrameOutput, Sendable {
        let file: MP4Output
        func write(_ frame: EncodedAudioFrame) throws { try file.write(frame) }
        func finish() throws { try file.trackFinished() }
    }

    private var audioTrackIndex: Int { hasVideo ? 1 : 0 }

    private func write(_ frame: EncodedFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.writer { try open(&state, videoFormat: frame.format) }
            try append(frame, &state)
        }
    }

    private func write(_ frame: EncodedAudioFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.writer {
                guard hasVideo else { try open(&state, videoFormat: nil); try append(frame, &state); return }
                guard state.waitingAudio.count < Self.maximumWaitingAudioFrames else {
                    throw ContainerWriteError.invalidConfiguration("\(Self.maximumWaitingAudioFrames) AAC frames came before the first picture")
                }
                state.waitingAudio.append(frame)
                return
            }
            try append(frame, &state)
        }
    }

    private func trackFinished() throws {
        try state.withLock { (state: inout State) throws -> Void in
            state.openTracks -= 1
            guard state.openTracks <= 0 else { return }
            if case .waiting = state.writer {
                // No picture came: an audio-only file if there is audio, else nothing.
                guard !state.waitingAudio.isEmpty, audioFormat != nil else { state.writer = .finished; return }
                try open(&state, videoFormat: nil, audioOnly: true)
            }
            switch state.writer {
            case var .fragmented(writer):
                try writer.finish()
                state.fragments = writer.muxer.fragmentCount
            case var .classic(writer): try writer.finish()
            case .waiting, .finished: break
            }
            state.writer = .finished
        }
    }

    private func open(_ state: inout State, videoFormat: FormatDescription?, audioOnly: Bool = false) throws {
        var tracks: [MP4TrackDescription] = []
        if let videoFormat { tracks.append(.video(videoFormat)) }
        if let audioFormat { tracks.append(.audio(audioFormat)) }
        switch layout {
        case let .fragmented(options):
            var writer = try FragmentedMP4Writer(path: path, tracks: tracks, options: options)
            writer.onFragment = nil
            state.writer = .fragmented(writer)
        case let .classic(options):
            state.writer = .classic(try MP4Writer(path: path, tracks: tracks, options: options))
        }
        let waiting = state.waitingAudio
        state.waitingAudio = []
        let audioIndex = audioOnly ? 0 : audioTrackIndex
        for frame in waiting { try append(frame, &state, track: audioIndex) }
    }

    private func append(_ frame: EncodedFrame, _ state: inout State) throws {
        switch state.writer {
        case var .fragmented(writer):
            state.writer = .finished  // the writer is moved out while it is changed (no copy of its buffers)
            defer { state.writer = .fragmented(writer) }
            let before = writer.muxer.fragmentCount
            try writer.append(frame, toTrack: 0)
            state.fragments += writer.muxer.fragmentCount - before
        case var .classic(writer):
            state.writer = .finished
            defer { state.writer = .classic(writer) }
            try writer.append(frame, toTrack: 0)
        case .waiting, .finished:
            throw ContainerWriteError.alreadyFinished
        }
    }

    private func append(_ frame: EncodedAudioFrame, _ state: inout State, track: Int? = nil) throws {
        let index = track ?? audioTrackIndex
        switch state.writer {
        case var .fragmented(writer):
            state.writer = .finished
            defer { state.writer = .fragmented(writer) }
            let before = writer.muxer.fragmentCount
            try writer.append(frame, toTrack: index)
            state.fragments += writer.muxer.fragmentCount - before
        case var .classic(writer):
            state.writer = .finished
            defer { state.writer = .classic(writer) }
            try writer.append(frame, toTrack: index)
        case .waiting, .finished:
            throw ContainerWriteError.alreadyFinished
        }
    }
}

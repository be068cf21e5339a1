import Containers
import Foundation
import MediaCore
import Synchronization

/// The HLS options of `record` and `encode`, and which outputs are HLS playlists.
enum HLSOutputOptions {
    /// `--segment-duration SECONDS`.
    static let segmentDuration = OptionSpec("--segment-duration", value: "SECONDS",
                                            help: "with an .m3u8 output: the shortest HLS segment; each starts at a key frame",
                                            default: 2.0, shown: "2", parse: OptionValueParsers.seconds)
    /// `--playlist-size N`.
    static let playlistSize = OptionSpec("--playlist-size", value: "N",
                                         help: "with an .m3u8 output: a live playlist of the last N segments, older ones removed",
                                         default: 0, shown: "0, keep every segment (record: EVENT, encode: VOD)",
                                         parse: OptionValueParsers.wholeNumber(in: 0...1_000_000))

    /// The codec an `.m3u8` output of `encode` gets: AAC for an audio input (`sine`, `.wav`), else the
    /// `--codec` (H.264 by default).
    /// - Parameters:
    ///   - input: the input's name.
    ///   - parsed: the command's options.
    /// - Returns: the codec.
    static func impliedCodec(input: String, _ parsed: ParsedOptions) -> CodecType {
        if input == "sine" || (input as NSString).pathExtension.lowercased() == "wav" { return .aac }
        return parsed.given(EncodingOptions.codec) ?? .h264
    }

    /// Whether `path` names an HLS playlist (`.m3u8`).
    static func isPlaylist(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "m3u8"
    }

    /// The writer's configuration for a playlist path and the options.
    ///
    /// `--playlist-size 0` (the default) keeps every segment: nothing the user recorded is deleted, and
    /// the finished playlist is a complete presentation. `encode` makes a file that is complete when
    /// written, so its playlist is VOD, written once at the end (a VOD playlist must never change);
    /// `record` makes one that is watched while it grows, so its playlist is EVENT, rewritten after
    /// each segment, with `EXT-X-ENDLIST` at the end. A size N > 0 is a live sliding window.
    /// - Parameters:
    ///   - path: the playlist's path (`out/stream.m3u8`).
    ///   - parsed: the command's options.
    ///   - growing: `true` for a recording (EVENT), `false` for a transcode (VOD).
    /// - Returns: the configuration.
    static func configuration(for path: String, _ parsed: ParsedOptions, growing: Bool) -> HLSWriter.Configuration {
        let directory = (path as NSString).deletingLastPathComponent
        let size = parsed.value(playlistSize) ?? 0
        let seconds = parsed.value(segmentDuration) ?? 2
        let mode: HLSWriter.Mode = size > 0 ? .live(windowSize: size) : growing ? .event : .vod
        return HLSWriter.Configuration(directory: directory, playlistName: (path as NSString).lastPathComponent,
                                       targetSegmentDuration: MediaTime(value: Int64((seconds * 1000).rounded()), timescale: 1000),
                                       mode: mode)
    }

    /// Refuses the HLS options for an output that is not a playlist.
    /// - Parameters:
    ///   - parsed: the command's options.
    ///   - output: the output path.
    /// - Throws: ``CommandLineError/conflict(_:)``.
    static func rejectUnlessPlaylist(_ parsed: ParsedOptions, output: String) throws(CommandLineError) {
        guard !isPlaylist(output), let name = parsed.firstGiven(among: [segmentDuration, playlistSize]) else { return }
        throw .conflict("\(name) applies to an .m3u8 output, not \(output)")
    }
}

/// One HLS presentation that a video task and an audio task write to at the same time.
///
/// The writer is made when the first picture arrives (its format holds the parameter sets); AAC
/// frames that come before it wait (at most ``maximumWaitingAudioFrames``). The presentation is
/// finished (last segment, `EXT-X-ENDLIST`) when every track's output has finished.
final class HLSOutput: Sendable {
    /// The most AAC frames that wait for the first picture (about 40 s at 48 kHz).
    static let maximumWaitingAudioFrames = 2048

    private enum Writer {
        case waiting
        case writing(HLSWriter)
        case finished(segments: Int)
    }

    private struct State {
        var writer: Writer = .waiting
        var waitingAudio: [EncodedAudioFrame] = []
        var openTracks: Int
    }

    /// The playlist's path.
    let path: String
    private let configuration: HLSWriter.Configuration
    private let hasVideo: Bool
    private let audioFormat: AudioFormatDescription?
    private let state: Mutex<State>

    /// Prepares an HLS output.
    /// - Parameters:
    ///   - path: the playlist to write.
    ///   - configuration: the writer's configuration.
    ///   - hasVideo: whether a video track comes.
    ///   - audioFormat: the audio track's format, if there is one.
    init(path: String, configuration: HLSWriter.Configuration, hasVideo: Bool, audioFormat: AudioFormatDescription?) {
        self.path = path
        self.configuration = configuration
        self.hasVideo = hasVideo
        self.audioFormat = audioFormat
        state = Mutex(State(openTracks: (hasVideo ? 1 : 0) + (audioFormat == nil ? 0 : 1)))
    }

    /// The number of media segments written so far.
    var segmentCount: Int {
        state.withLock { state in
            switch state.writer {
            case .waiting: return 0
            case let .writing(writer): return writer.segmentCount
            case let .finished(segments): return segments
            }
        }
    }

    /// The video track, as an output of its own.
    var videoTrack: VideoTrack { VideoTrack(output: self) }

    /// The audio track, as an output of its own.
    var audioTrack: AudioTrack { AudioTrack(output: self) }

    /// The video track of an ``HLSOutput``.
    struct VideoTrack: EncodedFrameOutput, Sendable {
        let output: HLSOutput
        func write(_ frame: EncodedFrame) throws { try output.write(frame) }
        func finish() throws { try output.trackFinished() }
    }

    /// The audio track of an ``HLSOutput``.
    struct AudioTrack: EncodedAudioFrameOutput, Sendable {
        let output: HLSOutput
        func write(_ frame: EncodedAudioFrame) throws { try output.write(frame) }
        func finish() throws { try output.trackFinished() }
    }

    private var audioTrackIndex: Int { hasVideo ? 1 : 0 }

    private func write(_ frame: EncodedFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.writer { try open(&state, videoFormat: frame.format) }
            try change(&state) { (writer: inout HLSWriter) throws(HLSError) in try writer.append(frame, toTrack: 0) }
        }
    }

    private func write(_ frame: EncodedAudioFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.writer {
                guard hasVideo else {
                    try open(&state, videoFormat: nil)
                    try change(&state) { (writer: inout HLSWriter) throws(HLSError) in try writer.append(frame, toTrack: 0) }
                    return
                }
                guard state.waitingAudio.count < Self.maximumWaitingAudioFrames else {
                    throw HLSError.invalidConfiguration("\(Self.maximumWaitingAudioFrames) AAC frames came before the first picture")
                }
                state.waitingAudio.append(frame)
                return
            }
            let index = audioTrackIndex
            try change(&state) { (writer: inout HLSWriter) throws(HLSError) in try writer.append(frame, toTrack: index) }
        }
    }

    private func trackFinished() throws {
        try state.withLock { (state: inout State) throws -> Void in
            state.openTracks -= 1
            guard state.openTracks <= 0 else { return }
            if case .waiting = state.writer {
                // No picture came: an audio-only presentation if there is audio, else nothing.
                guard !state.waitingAudio.isEmpty, audioFormat != nil else { state.writer = .finished(segments: 0); return }
                try open(&state, videoFormat: nil, audioOnly: true)
            }
            guard case var .writing(writer) = state.writer else { return }
            state.writer = .finished(segments: writer.segmentCount)
            try writer.finish()
            state.writer = .finished(segments: writer.segmentCount)
        }
    }

    /// Runs a change on the writer, moved out of the state meanwhile (no copy of its buffers).
    private func change(_ state: inout State, _ body: (inout HLSWriter) throws(HLSError) -> Void) throws {
        guard case var .writing(writer) = state.writer else { throw HLSError.alreadyFinished }
        state.writer = .waiting
        defer { state.writer = .writing(writer) }
        try body(&writer)
    }

    private func open(_ state: inout State, videoFormat: FormatDescription?, audioOnly: Bool = false) throws {
        var tracks: [MP4TrackDescription] = []
        if let videoFormat { tracks.append(.video(videoFormat)) }
        if let audioFormat { tracks.append(.audio(audioFormat)) }
        state.writer = .writing(try HLSWriter(tracks: tracks, configuration: configuration))
        let waiting = state.waitingAudio
        state.waitingAudio = []
        let index = audioOnly ? 0 : audioTrackIndex
        for frame in waiting {
            try change(&state) { (writer: inout HLSWriter) throws(HLSError) in try writer.append(frame, toTrack: index) }
        }
    }
}

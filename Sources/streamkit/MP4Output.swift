import Containers
import Foundation
import Live
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
    static func layout(_ parsed: ParsedOptions) throws(CommandLineError) -> MP4FileDestination.Layout {
        if parsed.isSet(noFragments) {
            if parsed.isGiven(fragmentDuration) { throw .conflict("--fragment-duration does not go with --no-fragments") }
            return .classic(MP4WriterOptions(faststart: parsed.isSet(faststart)))
        }
        if parsed.isSet(faststart) { throw .conflict("--faststart needs --no-fragments (a fragmented MP4 has its index first already)") }
        let milliseconds = parsed.given(fragmentDuration) ?? 0
        return .fragmented(FragmentedMP4Options(fragmentDuration: milliseconds > 0 ? MediaTime(value: Int64(milliseconds), timescale: 1000) : nil))
    }
}

/// The writer of an MP4 output: fragmented (the default of `record`) or classic.
enum MP4FileWriter: InterleavingFileWriter {
    /// Fragmented (the default of `record`) or classic, with the options of each.
    enum Layout: Sendable {
        case fragmented(FragmentedMP4Options)
        case classic(MP4WriterOptions)
    }

    case fragmented(FragmentedMP4Writer<FileByteSink>)
    case classic(MP4Writer<FileByteSink>)
    /// Only while a writer is moved out to be changed (so that its buffers are not copied).
    case moved

    /// Creates the file at `path`.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - layout: fragmented or classic.
    ///   - tracks: the tracks.
    init(path: String, layout: Layout, tracks: [MP4TrackDescription]) throws {
        switch layout {
        case let .fragmented(options):
            var writer = try FragmentedMP4Writer(path: path, tracks: tracks, options: options)
            writer.onFragment = nil
            self = .fragmented(writer)
        case let .classic(options):
            self = .classic(try MP4Writer(path: path, tracks: tracks, options: options))
        }
    }

    /// The number of fragments written so far (0 for a classic file).
    var fragmentCount: Int {
        if case let .fragmented(writer) = self { return writer.muxer.fragmentCount }
        return 0
    }

    mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws {
        try change({ try $0.append(frame, toTrack: index) }, { try $0.append(frame, toTrack: index) })
    }

    mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws {
        try change({ try $0.append(frame, toTrack: index) }, { try $0.append(frame, toTrack: index) })
    }

    mutating func finish() throws {
        try change({ try $0.finish() }, { try $0.finish() })
    }

    /// Runs a change on the writer, moved out of `self` meanwhile (no copy of its buffers).
    private mutating func change(_ fragmented: (inout FragmentedMP4Writer<FileByteSink>) throws -> Void,
                                 _ classic: (inout MP4Writer<FileByteSink>) throws -> Void) throws {
        switch self {
        case var .fragmented(writer):
            self = .moved
            defer { self = .fragmented(writer) }
            try fragmented(&writer)
        case var .classic(writer):
            self = .moved
            defer { self = .classic(writer) }
            try classic(&writer)
        case .moved:
            throw ContainerWriteError.alreadyFinished
        }
    }
}

/// One MP4 file that a video task and an audio task write to at the same time.
typealias MP4Output = SharedFileOutput<MP4FileWriter>

extension SharedFileOutput where Writer == MP4FileWriter {
    /// Fragmented (the default of `record`) or classic.
    typealias Layout = MP4FileWriter.Layout

    /// Prepares an MP4 output.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - layout: fragmented or classic.
    ///   - hasVideo: whether a video track comes.
    ///   - audioFormat: the audio track's format, if there is one.
    convenience init(path: String, layout: Layout, hasVideo: Bool, audioFormat: AudioFormatDescription?) {
        self.init(hasVideo: hasVideo, audioFormat: audioFormat) { video, audio in
            try MP4FileWriter(path: path, layout: layout, tracks: .tracks(video: video, audio: audio))
        }
    }

    /// The number of fragments written so far (fragmented layout).
    var fragmentCount: Int { inspect(\.fragmentCount) ?? 0 }
}

extension Array where Element == MP4TrackDescription {
    /// The tracks of an MP4 or HLS output: the video track first when there is one, then the audio track.
    /// - Parameters:
    ///   - video: the video format, or `nil`.
    ///   - audio: the audio format, or `nil`.
    /// - Returns: the track descriptions.
    static func tracks(video: FormatDescription?, audio: AudioFormatDescription?) -> [MP4TrackDescription] {
        (video.map { [.video($0)] } ?? []) + (audio.map { [.audio($0)] } ?? [])
    }
}

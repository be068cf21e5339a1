import Containers
import Foundation
import MediaCore
import Synchronization

/// A container writer that one ``SharedFileOutput`` drives: pictures and AAC frames appended by track index
/// (video 0, audio 1 — or audio 0 when there is no video), finished once.
protocol InterleavingFileWriter {
    /// Appends a coded picture to track `index`.
    mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws
    /// Appends an AAC frame to track `index`.
    mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws
    /// Writes what is left and closes the file.
    mutating func finish() throws
}

extension MP4Writer: InterleavingFileWriter {}
extension FragmentedMP4Writer: InterleavingFileWriter {}
extension HLSWriter: InterleavingFileWriter {}

/// One file (or presentation) that a video task and an audio task write to at the same time.
///
/// The writer is made when the first picture arrives (its format holds the parameter sets); AAC frames that
/// come before it wait (at most ``maximumWaitingAudioFrames``). Without a picture but with audio, the file is
/// audio only. The writer is finished when every track's output has finished.
final class SharedFileOutput<Writer: InterleavingFileWriter>: Sendable {
    /// Makes the writer once the formats are known: the video format (`nil` for an audio-only file) and the
    /// audio format (`nil` without audio).
    typealias Opening = @Sendable (_ video: FormatDescription?, _ audio: AudioFormatDescription?) throws -> Writer

    /// The most AAC frames that wait for the first picture (about 40 s at 48 kHz).
    static var maximumWaitingAudioFrames: Int { 2048 }

    private enum Stage {
        case waiting
        case writing(Writer)
        /// The writer after `finish()`, kept for what callers read of it (segment and fragment counts).
        case finished(Writer?)
    }

    private struct State {
        var stage: Stage = .waiting
        var waitingAudio: [EncodedAudioFrame] = []
        var openTracks: Int
    }

    private let hasVideo: Bool
    private let audioFormat: AudioFormatDescription?
    private let opening: Opening
    private let state: Mutex<State>

    /// Prepares an output.
    /// - Parameters:
    ///   - hasVideo: whether a video track comes.
    ///   - audioFormat: the audio track's format, if there is one.
    ///   - opening: makes the writer when the formats are known.
    init(hasVideo: Bool, audioFormat: AudioFormatDescription?, opening: @escaping Opening) {
        self.hasVideo = hasVideo
        self.audioFormat = audioFormat
        self.opening = opening
        state = Mutex(State(openTracks: (hasVideo ? 1 : 0) + (audioFormat == nil ? 0 : 1)))
    }

    /// Reads a property of the writer (while writing or after it finished), or `nil` before it exists.
    /// - Parameter property: what to read.
    /// - Returns: the property's value, or `nil` when no writer was made (yet).
    func inspect<Value: Sendable>(_ property: KeyPath<Writer, Value> & Sendable) -> Value? {
        state.withLock { state in
            switch state.stage {
            case .waiting, .finished(nil): return nil
            case let .writing(writer), let .finished(writer?): return writer[keyPath: property]
            }
        }
    }

    /// The video track, as an output of its own.
    var videoTrack: VideoTrack { VideoTrack(output: self) }

    /// The audio track, as an output of its own.
    var audioTrack: AudioTrack { AudioTrack(output: self) }

    /// The video track of a ``SharedFileOutput``.
    struct VideoTrack: EncodedFrameOutput, Sendable {
        let output: SharedFileOutput
        func write(_ frame: EncodedFrame) throws { try output.write(frame) }
        func finish() throws { try output.trackFinished() }
    }

    /// The audio track of a ``SharedFileOutput``.
    struct AudioTrack: EncodedAudioFrameOutput, Sendable {
        let output: SharedFileOutput
        func write(_ frame: EncodedAudioFrame) throws { try output.write(frame) }
        func finish() throws { try output.trackFinished() }
    }

    private var audioTrackIndex: Int { hasVideo ? 1 : 0 }

    private func write(_ frame: EncodedFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.stage { try open(&state, videoFormat: frame.format) }
            try change(&state) { writer throws in try writer.append(frame, toTrack: 0) }
        }
    }

    private func write(_ frame: EncodedAudioFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.stage {
                guard hasVideo else {
                    try open(&state, videoFormat: nil)
                    try change(&state) { writer throws in try writer.append(frame, toTrack: 0) }
                    return
                }
                guard state.waitingAudio.count < Self.maximumWaitingAudioFrames else {
                    throw ContainerWriteError.invalidConfiguration("\(Self.maximumWaitingAudioFrames) AAC frames came before the first picture")
                }
                state.waitingAudio.append(frame)
                return
            }
            let index = audioTrackIndex
            try change(&state) { writer throws in try writer.append(frame, toTrack: index) }
        }
    }

    private func trackFinished() throws {
        try state.withLock { (state: inout State) throws -> Void in
            state.openTracks -= 1
            guard state.openTracks <= 0 else { return }
            if case .waiting = state.stage {
                // No picture came: an audio-only file if there is audio, else nothing.
                guard !state.waitingAudio.isEmpty, audioFormat != nil else { state.stage = .finished(nil); return }
                try open(&state, videoFormat: nil, audioOnly: true)
            }
            guard case var .writing(writer) = state.stage else { return }
            state.stage = .finished(nil)
            try writer.finish()
            state.stage = .finished(writer)
        }
    }

    /// Runs a change on the writer, moved out of the state meanwhile (no copy of its buffers).
    private func change(_ state: inout State, _ body: (inout Writer) throws -> Void) throws {
        guard case var .writing(writer) = state.stage else { throw ContainerWriteError.alreadyFinished }
        state.stage = .waiting
        defer { state.stage = .writing(writer) }
        try body(&writer)
    }

    private func open(_ state: inout State, videoFormat: FormatDescription?, audioOnly: Bool = false) throws {
        state.stage = .writing(try opening(videoFormat, audioFormat))
        let waiting = state.waitingAudio
        state.waitingAudio = []
        let index = audioOnly ? 0 : audioTrackIndex
        for frame in waiting { try change(&state) { writer throws in try writer.append(frame, toTrack: index) } }
    }
}

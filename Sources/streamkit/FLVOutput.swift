import Containers
import Foundation
import MediaCore
import Synchronization

/// Which outputs and inputs of the commands are FLV files.
enum FLVOutputOptions {
    /// Whether `path` names an FLV file (`.flv`, any case).
    /// - Parameter path: a command-line path.
    /// - Returns: `true` for `.flv`.
    static func isFLV(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "flv"
    }
}

/// One FLV file that a video task and an audio task write to at the same time (``FLVWriter``).
///
/// The file is made when the first picture arrives (its format holds the parameter sets and the size that
/// `onMetaData` names); AAC frames that come before it wait (at most ``maximumWaitingAudioFrames``). The file
/// is finished when every track's output has finished; `duration` and `filesize` are fixed up then.
final class FLVOutput: Sendable {
    /// The most AAC frames that wait for the first picture (about 40 s at 48 kHz).
    static let maximumWaitingAudioFrames = 2048

    private enum Writer {
        case waiting
        case writing(FLVWriter<FileByteSink>)
        case finished
    }

    private struct State {
        var writer: Writer = .waiting
        var waitingAudio: [EncodedAudioFrame] = []
        var openTracks: Int
    }

    /// The file's path.
    let path: String
    private let hasVideo: Bool
    private let audioFormat: AudioFormatDescription?
    private let frameRate: Double?
    private let state: Mutex<State>

    /// Prepares an FLV output.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - hasVideo: whether a video track comes.
    ///   - audioFormat: the audio track's format, if there is one.
    ///   - frameRate: the video frame rate for `onMetaData`, if known.
    init(path: String, hasVideo: Bool, audioFormat: AudioFormatDescription?, frameRate: Double?) {
        self.path = path
        self.hasVideo = hasVideo
        self.audioFormat = audioFormat
        self.frameRate = frameRate
        state = Mutex(State(openTracks: (hasVideo ? 1 : 0) + (audioFormat == nil ? 0 : 1)))
    }

    /// The video track, as an output of its own.
    var videoTrack: VideoTrack { VideoTrack(file: self) }

    /// The audio track, as an output of its own.
    var audioTrack: AudioTrack { AudioTrack(file: self) }

    /// The video track of an ``FLVOutput``.
    struct VideoTrack: EncodedFrameOutput, Sendable {
        let file: FLVOutput
        func write(_ frame: EncodedFrame) throws { try file.write(frame) }
        func finish() throws { try file.trackFinished() }
    }

    /// The audio track of an ``FLVOutput``.
    struct AudioTrack: EncodedAudioFrameOutput, Sendable {
        let file: FLVOutput
        func write(_ frame: EncodedAudioFrame) throws { try file.write(frame) }
        func finish() throws { try file.trackFinished() }
    }

    private func write(_ frame: EncodedFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.writer { try open(&state, videoFormat: frame.format) }
            try modify(&state) { (writer) throws(ContainerWriteError) in try writer.append(frame) }
        }
    }

    private func write(_ frame: EncodedAudioFrame) throws {
        try state.withLock { (state: inout State) throws -> Void in
            if case .waiting = state.writer {
                guard hasVideo else {
                    try open(&state, videoFormat: nil)
                    try modify(&state) { (writer) throws(ContainerWriteError) in try writer.append(frame) }
                    return
                }
                guard state.waitingAudio.count < Self.maximumWaitingAudioFrames else {
                    throw ContainerWriteError.invalidConfiguration("\(Self.maximumWaitingAudioFrames) AAC frames came before the first picture")
                }
                state.waitingAudio.append(frame)
                return
            }
            try modify(&state) { (writer) throws(ContainerWriteError) in try writer.append(frame) }
        }
    }

    private func trackFinished() throws {
        try state.withLock { (state: inout State) throws -> Void in
            state.openTracks -= 1
            guard state.openTracks <= 0 else { return }
            if case .waiting = state.writer {
                // No picture came: an audio-only file if there is audio, else nothing.
                guard !state.waitingAudio.isEmpty, audioFormat != nil else { state.writer = .finished; return }
                try open(&state, videoFormat: nil)
            }
            try modify(&state) { (writer) throws(ContainerWriteError) in try writer.finish() }
            state.writer = .finished
        }
    }

    private func open(_ state: inout State, videoFormat: FormatDescription?) throws {
        let sink = try FileByteSink(path: path)
        state.writer = .writing(try FLVWriter(sink: sink, configuration: .init(video: videoFormat, audio: audioFormat, frameRate: frameRate)))
        let waiting = state.waitingAudio
        state.waitingAudio = []
        for frame in waiting { try modify(&state) { (writer) throws(ContainerWriteError) in try writer.append(frame) } }
    }

    /// Runs `body` on the writer, moved out of the state while it is changed (no copy of its buffers).
    private func modify(_ state: inout State, _ body: (inout FLVWriter<FileByteSink>) throws(ContainerWriteError) -> Void) throws {
        guard case var .writing(writer) = state.writer else { throw ContainerWriteError.alreadyFinished }
        state.writer = .finished
        defer { state.writer = .writing(writer) }
        try body(&writer)
    }
}

import Containers
import Foundation
import MediaCore

/// Which outputs and inputs of the commands are FLV files.
enum FLVOutputOptions {
    /// Whether `path` names an FLV file (`.flv`, any case).
    /// - Parameter path: a command-line path.
    /// - Returns: `true` for `.flv`.
    static func isFLV(_ path: String) -> Bool {
        (path as NSString).pathExtension.lowercased() == "flv"
    }
}

/// The FLV writer as a ``SharedFileOutput``'s writer: FLV has one video and one audio stream, so the track
/// index is not needed.
extension FLVWriter: InterleavingFileWriter {
    mutating func append(_ frame: EncodedFrame, toTrack index: Int) throws { try append(frame) }
    mutating func append(_ frame: EncodedAudioFrame, toTrack index: Int) throws { try append(frame) }
}

/// One FLV file (``FLVWriter``) that a video task and an audio task write to at the same time; `duration` and
/// `filesize` in `onMetaData` are fixed up when every track's output has finished.
typealias FLVOutput = SharedFileOutput<FLVWriter<FileByteSink>>

extension SharedFileOutput where Writer == FLVWriter<FileByteSink> {
    /// Prepares an FLV output.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - hasVideo: whether a video track comes.
    ///   - audioFormat: the audio track's format, if there is one.
    ///   - frameRate: the video frame rate for `onMetaData`, if known.
    convenience init(path: String, hasVideo: Bool, audioFormat: AudioFormatDescription?, frameRate: Double?) {
        self.init(hasVideo: hasVideo, audioFormat: audioFormat) { video, audio in
            try FLVWriter(sink: try FileByteSink(path: path), configuration: .init(video: video, audio: audio, frameRate: frameRate))
        }
    }
}

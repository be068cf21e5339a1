import Containers

/// MP4-family inputs of the commands (`.mp4`, `.mov`, `.m4v`, `.m4a`), recognised by extension and read with
/// ``MP4File``.
enum MP4Input {
    /// The extensions read as MP4.
    static let extensions: Set<String> = ["mp4", "mov", "m4v", "m4a"]

    /// Whether `path` names an MP4-family file.
    /// - Parameter path: a command-line path.
    /// - Returns: `true` for `.mp4`, `.mov`, `.m4v` and `.m4a` (any case).
    static func isMP4(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: ".") else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// The track a command reads: the first video track, or with `audio` the first AAC track.
    /// - Parameters:
    ///   - file: the file.
    ///   - audio: whether the audio track is wanted.
    /// - Returns: the track, or `nil`.
    static func track(of file: MP4File, audio: Bool) -> MP4Track? {
        file.tracks.first { track in
            switch track.format {
            case .video: return !audio
            case .audio: return audio
            case .unsupported: return false
            }
        }
    }
}

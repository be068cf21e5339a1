import Foundation
import Live

/// What a DEST word of `publish` names: an RTMP server or a file, by scheme and extension.
enum DestinationWord {
    /// Checks that a word names a destination this build can make.
    /// - Parameter word: the word.
    /// - Throws: ``CommandLineError`` naming the word.
    static func check(_ word: String) throws(CommandLineError) {
        let lowered = word.lowercased()
        if lowered.hasPrefix("rtmp://") || lowered.hasPrefix("rtmps://") { return }
        switch (word as NSString).pathExtension.lowercased() {
        case "mp4", "m4v", "mov", "h264", "264", "h265", "265", "hevc", "aac": return
        default:
            throw .invalidValue(option: "DEST", value: word, reason: "is not rtmp[s]://HOST[:PORT]/APP/KEY or an .mp4, .h264, .h265 or .aac file")
        }
    }

    /// The destination a word names.
    /// - Parameters:
    ///   - word: `rtmp[s]://…` or a file path.
    ///   - rtmp: how RTMP destinations publish.
    /// - Returns: the destination.
    /// - Throws: ``CommandLineError`` for a word that names nothing.
    static func destination(for word: String, rtmp: RTMPDestination.Options) throws(CommandLineError) -> any LiveDestination {
        try check(word)
        let lowered = word.lowercased()
        if lowered.hasPrefix("rtmp://") || lowered.hasPrefix("rtmps://") { return RTMPDestination(url: word, options: rtmp) }
        switch (word as NSString).pathExtension.lowercased() {
        case "mp4", "m4v", "mov": return MP4FileDestination(path: word)
        case "aac": return ADTSFileDestination(path: word)
        default: return AnnexBFileDestination(path: word)
        }
    }
}

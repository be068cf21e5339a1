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

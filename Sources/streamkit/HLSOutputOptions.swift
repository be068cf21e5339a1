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

    /// `--segment-format fmp4|ts`.
    static let segmentFormat = OptionSpec("--segment-format", value: "fmp4|ts",
                                          help: "with an .m3u8 output: fragmented MP4 segments (init.mp4, .m4s) or MPEG-TS (.ts)",
                                          default: HLSSegmentFormat.fragmentedMP4, shown: "fmp4",
                                          parse: OptionValueParsers.choice(of: "segment format", [(["fmp4", "mp4", "cmaf"], HLSSegmentFormat.fragmentedMP4),
                                                                                                  (["ts", "mpegts"], HLSSegmentFormat.mpegTS)]))

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
                                       mode: mode, segmentFormat: parsed.value(segmentFormat) ?? .fragmentedMP4)
    }

    /// Refuses the HLS options for an output that is not a playlist.
    /// - Parameters:
    ///   - parsed: the command's options.
    ///   - output: the output path.
    /// - Throws: ``CommandLineError/conflict(_:)``.
    static func rejectUnlessPlaylist(_ parsed: ParsedOptions, output: String) throws(CommandLineError) {
        guard !isPlaylist(output), let name = parsed.firstGiven(among: [segmentDuration, playlistSize, segmentFormat]) else { return }
        throw .conflict("\(name) applies to an .m3u8 output, not \(output)")
    }
}

import Containers
import Foundation
import Live

/// `streamkit remux INPUT.mp4 OUTPUT.(h264|h265|aac|mp4|m4v|mov|m4a)`: copies one track's samples, unchanged, into an
/// elementary stream — Annex B for video, ADTS for AAC — like `ffmpeg -i INPUT -c copy -f h264 OUTPUT`; or every
/// track into a new MP4 file (``MP4Remuxer``), like `ffmpeg -i INPUT -c copy OUTPUT.mp4`. An MPEG-TS input or output
/// goes through the library's pipeline (``TSFileSource`` / ``MP4FileSource`` into the destination the output names),
/// like `ffmpeg -i INPUT -c copy OUTPUT.ts`.
struct RemuxCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "an MP4 file (.mp4, .mov, .m4v, .m4a) or an MPEG-TS file (.ts)")
    /// `OUTPUT`.
    static let output = PositionalSpec("OUTPUT", help: "a .h264/.264, .h265/.265/.hevc or .aac file (the first track of that codec), or a .mp4/.m4v/.mov/.m4a or .ts file (every track)")
    /// `--faststart`.
    static let faststart = OptionSpec(flag: "--faststart", help: "for an MP4 output: moov before mdat")

    /// The command's arguments.
    static let table = OptionTable(
        command: "remux", summary: "copy an MP4's or a TS's frames into an Annex B or ADTS stream, a new MP4 or a TS (no re-encoding)",
        positionals: [input, output], options: [faststart])

    let input: String
    let output: String
    let faststart: Bool

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `remux`.
    /// - Throws: ``CommandLineError`` for a missing argument.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        input = try parsed.argument(Self.input)
        output = try parsed.argument(Self.output)
        faststart = parsed.isSet(Self.faststart)
    }

    /// Runs the copy.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        let suffix = output.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if suffix == "ts" || (input as NSString).pathExtension.lowercased() == "ts" { return await remuxThroughPipeline() }
        if ["mp4", "m4v", "mov", "m4a"].contains(suffix) { return remuxToMP4() }
        let wanted: CodecTypeName? = switch suffix {
        case "h264", "264": .h264
        case "h265", "265", "hevc": .hevc
        case "aac", "adts": .aac
        default: nil
        }
        guard let wanted else {
            printError("streamkit remux: \(output): the output must end in .h264, .264, .h265, .265, .hevc, .aac, .mp4, .m4v, .mov or .m4a")
            return 2
        }
        do {
            let file = try MP4File(contentsOf: input)
            guard let track = file.tracks.first(where: { $0.codec?.rawValue == wanted.rawValue }) else {
                printError("streamkit remux: \(input) has no \(wanted.rawValue) track")
                return 1
            }
            var sink = try FileByteSink(path: output)
            let count = try file.writeElementaryStream(of: track, to: &sink)
            try sink.close()
            printError("track \(track.id): \(count) samples → \(output)")
            return 0
        } catch {
            printError("streamkit remux: \(error)")
            return 1
        }
    }

    /// Copies a TS or an MP4 into the file the output names, through a pipeline without pacing or encoders.
    /// - Returns: the exit status.
    private func remuxThroughPipeline() async -> Int32 {
        let isTSInput = (input as NSString).pathExtension.lowercased() == "ts"
        let tsSource = isTSInput ? TSFileSource(path: input, pacing: .asFastAsPossible) : nil
        let source: any EncodedMediaSource = tsSource ?? MP4FileSource(path: input, pacing: .asFastAsPossible)
        do {
            let options = LiveDestinations.Options(mp4Layout: .classic(MP4WriterOptions(faststart: faststart)))
            let destination = try LiveDestinations.destination(for: output, options: options)
            let pipeline = LivePipeline(source: source, delivery: .waitForSlowest)
            pipeline.add(destination, options: .recording())
            let report = try await LiveLaunch.run(pipeline, label: "remux")
            for issue in await tsSource?.issues ?? [] { printError("\(input): \(issue)") }
            guard let sent = report.destinations.first else { return 1 }
            if let failure = sent.failure {
                printError("streamkit remux: \(output): \(failure)")
                return 1
            }
            printError("\(sent.videoFramesSent) pictures, \(sent.audioFramesSent) audio frames → \(output)")
            return 0
        } catch {
            printError("streamkit remux: \(error)")
            return 1
        }
    }

    /// Copies every track into a new MP4 file.
    /// - Returns: the exit status.
    private func remuxToMP4() -> Int32 {
        do {
            let file = try MP4File(contentsOf: input)
            let summary = try MP4Remuxer.remux(file, to: output, options: MP4WriterOptions(faststart: faststart))
            for skipped in summary.skippedTracks {
                printError("streamkit remux: track \(file.tracks[skipped].id) (\(file.tracks[skipped].sampleEntryType)) left out: not H.264, H.265 or AAC")
            }
            printError("\(summary.copiedTracks.count) tracks, \(summary.sampleCount) samples → \(output)")
            return 0
        } catch {
            printError("streamkit remux: \(error)")
            return 1
        }
    }

    /// The codecs an elementary-stream output can hold, named as ``MediaCore/CodecType`` names them.
    enum CodecTypeName: String {
        case h264, hevc, aac
    }
}

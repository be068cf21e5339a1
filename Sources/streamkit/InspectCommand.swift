import Containers
import Foundation

/// `streamkit inspect FILE [--nal] [--json]`: explains an H.264/H.265 Annex B or ADTS stream, detected
/// from its bytes. Prints what it could read, then any errors; exits 1 when there were errors.
struct InspectCommand {
    /// `FILE`.
    static let file = PositionalSpec("FILE", help: "an H.264/H.265 Annex B or ADTS AAC stream (detected from its bytes), an .mp4/.mov/.m4v/.m4a, an .flv or a .ts file")
    /// `--nal`.
    static let nal = OptionSpec(flag: "--nal", help: "list every NAL unit")
    /// `--json`.
    static let json = OptionSpec(flag: "--json", help: "print one JSON object instead of text")

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "inspect", summary: "explain an H.264/H.265 Annex B or ADTS AAC stream, or an MP4, FLV or MPEG-TS file and its tracks", positionals: [file], options: [nal, json],
        notes: ["Prints what it could read, then any errors with their byte offset; exits 1 when there were errors."])

    let path: String
    let listsNALUnits: Bool
    let printsJSON: Bool

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `inspect`, parsed with ``table``.
    /// - Throws: ``CommandLineError`` for a missing file.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        path = try parsed.argument(Self.file)
        listsNALUnits = parsed.isSet(Self.nal)
        printsJSON = parsed.isSet(Self.json)
    }

    /// Runs the command: reads the file in chunks (memory stays flat whatever its size), streaming the
    /// `--json` frames as they are found. `--nal` lists the NAL units from a second pass over the file.
    /// - Returns: the exit status: 0 when the stream was read without error.
    func run() -> Int32 {
        if MP4Input.isMP4(path) { return MP4Inspect.run(path: path, printsJSON: printsJSON) }
        if FLVOutputOptions.isFLV(path) { return FLVInspect.run(path: path, printsJSON: printsJSON) }
        if RecordCommand.isTS(path) { return TSInspect.run(path: path, printsJSON: printsJSON) }
        var source: FileByteSource
        do {
            source = try FileByteSource(path: path)
        } catch {
            if printsJSON { print(JSONValue.object([("error", .string(error.description))]).text) }
            printError("streamkit inspect: \(error)")  // "cannot open PATH: No such file or directory (errno 2)"
            return 1
        }
        if listsNALUnits && source.remainingByteCount == nil {
            printError("\(path): --nal reads the file twice and needs a regular file, not a pipe or device")
            return 1
        }
        var output = StandardOutput()
        var json = InspectJSON()
        let summary: StreamSummary
        do {
            summary = try StreamInspector.inspect(&source) { event in
                if printsJSON { json.take(event, to: &output) }
            }
        } catch {
            output.flush()
            switch error {
            case .empty, .unrecognizedFormat:
                if printsJSON { print(JSONValue.object([("error", .string("unrecognised stream: \(error)"))]).text) }
                printError("\(path): not an H.264 or H.265 Annex B stream, nor ADTS AAC (\(error))")
            case .readFailed:
                printError("\(error)")
            }
            return 1
        }
        switch summary {
        case let .video(video):
            if printsJSON {
                json.finish(video, to: &output, listNALUnits: listsNALUnits ? { write in listNALUnits(write) } : nil)
            } else {
                output.write(InspectText.render(summary, path: path))
                if listsNALUnits {
                    output.write(InspectText.nalUnitTableHeading)
                    listNALUnits { output.write(InspectText.nalUnitRow($0)) }
                }
            }
        case let .audio(audio):
            output.write(printsJSON ? InspectJSON.text(for: audio) : InspectText.render(summary, path: path))
        }
        output.flush()
        for issue in summary.issues { printError("error: \(issue)") }
        if summary.issueCount > summary.issues.count {
            printError("error: … and \(summary.issueCount - summary.issues.count) more errors")
        }
        return summary.issueCount == 0 ? 0 : 1
    }

    /// The second pass of `--nal`: reads the file again and hands out every NAL unit.
    private func listNALUnits(_ write: (NALUnitSummary) -> Void) {
        guard var again = try? FileByteSource(path: path) else { return }
        _ = try? StreamInspector.inspect(&again, reportsNALUnits: true) { event in
            if case let .nalUnit(unit) = event { write(unit) }
        }
    }
}

/// Writes a line to standard error.
/// - Parameter text: the line.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

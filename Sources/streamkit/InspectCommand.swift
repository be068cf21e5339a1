import Containers
import Foundation

/// `streamkit inspect FILE [--nal] [--json]`: explains an H.264/H.265 Annex B or ADTS stream, detected
/// from its bytes. Prints what it could read, then any errors; exits 1 when there were errors.
struct InspectCommand {
    /// `FILE`.
    static let file = PositionalSpec("FILE", help: "an H.264/H.265 Annex B or ADTS AAC stream (detected from its bytes)")
    /// `--nal`.
    static let nal = OptionSpec(flag: "--nal", help: "list every NAL unit")
    /// `--json`.
    static let json = OptionSpec(flag: "--json", help: "print one JSON object instead of text")

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "inspect", summary: "explain an H.264/H.265 Annex B or ADTS AAC stream", positionals: [file], options: [nal, json],
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

    /// Runs the command.
    /// - Returns: the exit status: 0 when the stream was read without error.
    func run() -> Int32 {
        guard let data = FileManager.default.contents(atPath: path) else {
            printError("cannot read \(path): no such file or not readable")
            return 1
        }
        let bytes = [UInt8](data)
        guard let format = ElementaryStreamFormat.detect(bytes) else {
            let what = bytes.isEmpty ? "the file is empty" : "no H.264/H.265 start codes with valid NAL headers and no ADTS frames found"
            if printsJSON { print(JSONValue.object([("error", .string("unrecognised stream: \(what)"))]).text) }
            printError("\(path): not an H.264 or H.265 Annex B stream, nor ADTS AAC (\(what))")
            return 1
        }
        let report: StreamReport
        switch format {
        case .adts: report = .audio(ADTSStreamAnalyzer.analyze(bytes))
        case .h264AnnexB, .hevcAnnexB:
            report = .video(VideoStreamAnalyzer.analyze(bytes, format: format, listNALUnits: listsNALUnits))
        }
        if printsJSON {
            print(InspectJSON.object(for: report, includeNALUnits: listsNALUnits).text)
        } else {
            print(InspectText.render(report, path: path, includeNALUnits: listsNALUnits), terminator: "")
        }
        for issue in report.issues { printError("error: \(issue)") }
        return report.issues.isEmpty ? 0 : 1
    }
}

/// Writes a line to standard error.
/// - Parameter text: the line.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

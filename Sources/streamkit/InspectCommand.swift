import Containers
import Foundation

/// `streamkit inspect FILE [--nal] [--json]`: explains an H.264/H.265 Annex B or ADTS stream, detected
/// from its bytes. Prints what it could read, then any errors; exits 1 when there were errors.
struct InspectCommand {
    static let usage = "usage: streamkit inspect FILE [--nal] [--json]"

    let path: String
    let listsNALUnits: Bool
    let printsJSON: Bool

    /// Parses the command's arguments.
    /// - Parameter words: the words after `inspect`.
    /// - Throws: ``CommandLineError`` for a missing file or an unknown option.
    init(_ words: [String]) throws(CommandLineError) {
        let arguments = try CommandLineArguments(words, valueOptions: [])
        try arguments.rejectUnknown(allowedFlags: ["nal", "json"], allowedOptions: [])
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw .missingArgument("the file to inspect (\(Self.usage))")
        }
        self.path = path
        listsNALUnits = arguments.flags.contains("nal")
        printsJSON = arguments.flags.contains("json")
    }

    /// Runs the command.
    /// - Returns: the exit status: 0 when the stream was read without error.
    func run() -> Int32 {
        let bytes: [UInt8]
        do {
            let source = try FileByteSource(path: path)
            defer { try? source.close() }
            bytes = try source.readToEnd()
        } catch {
            if printsJSON { print(JSONValue.object([("error", .string(error.description))]).text) }
            printError("streamkit inspect: \(error)")
            return 1
        }
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

// streamkit — the seeds' apps on Linux. One sub-command per job.
import Foundation

let usage = """
    usage: streamkit COMMAND [options]

    commands:
      inspect FILE [--nal] [--json]   explain an H.264/H.265 Annex B or ADTS AAC stream
    """

let words = Array(CommandLine.arguments.dropFirst())
guard let command = words.first else {
    printError(usage)
    exit(2)
}
let rest = Array(words.dropFirst())
do {
    switch command {
    case "inspect":
        exit(try InspectCommand(rest).run())
    case "help", "--help", "-h":
        print(usage)
    default:
        printError("unknown command \"\(command)\"\n\(usage)")
        exit(2)
    }
} catch {
    printError("streamkit \(command): \(error)")
    exit(2)
}

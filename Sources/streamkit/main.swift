// streamkit — the seeds' apps on Linux. One sub-command per job; each declares its options in an
// OptionTable, from which its usage, `--help` and argument errors are made.
import Foundation

/// Every command, in the order `streamkit help` lists them.
let commands: [OptionTable] = [
    RecordCommand.table, EncodeCommand.table, DecodeCommand.table, EnginesCommand.table, InspectCommand.table,
    StreamCommand.table, ServeCommand.table, ReceiveCommand.table,
    RemuxCommand.table, PublishCommand.table,
]

let words = Array(CommandLine.arguments.dropFirst())
guard let command = words.first else {
    printError(Usage.overview(of: commands))
    exit(2)
}
let rest = Array(words.dropFirst())
if ["help", "--help", "-h"].contains(command) {
    guard let name = rest.first else {
        print(Usage.overview(of: commands))
        exit(0)
    }
    guard rest.count == 1, let table = commands.first(where: { $0.command == name }) else {
        printError("streamkit help: unknown command \"\(rest.joined(separator: " "))\"\n\n\(Usage.overview(of: commands))")
        exit(2)
    }
    print(Usage.help(for: table))
    exit(0)
}
guard let table = commands.first(where: { $0.command == command }) else {
    printError("unknown command \"\(command)\"\n\n\(Usage.overview(of: commands))")
    exit(2)
}
do {
    let parsed = try table.parse(rest)
    if parsed.isHelpRequested {
        print(Usage.help(for: table))
        exit(0)
    }
    switch command {
    case "inspect": exit(try InspectCommand(parsed).run())
    case "record": exit(try await RecordCommand(parsed).run())
    case "encode": exit(try await EncodeCommand(parsed).run())
    case "decode": exit(try await DecodeCommand(parsed).run())
    case "stream": exit(try await StreamCommand(parsed).run())
    case "receive": exit(try await ReceiveCommand(parsed).run())
    case "serve": exit(try await ServeCommand(parsed).run())
    case "remux": exit(try await RemuxCommand(parsed).run())
    case "publish": exit(try await PublishCommand(parsed).run())
    default: exit(EnginesCommand().run())
    }
} catch {
    printError("streamkit \(command): \(error)\n\(Usage.helpPointer(for: command))")
    exit(2)
}

// streamkit — the seeds' apps on Linux. One sub-command per job.
import Foundation

let usage = """
    usage: streamkit COMMAND [options]

    commands:
      record [options]                camera + microphone → test.h264 + test.aac (the seeds' demo)
      encode INPUT -o OUTPUT [options] .y4m/.yuv/.wav/testsrc/sine → .h264/.h265/.aac
      decode INPUT -o OUTPUT          .h264/.h265 → .y4m/.yuv, .aac → .wav
      engines                         what this machine can encode and decode
      inspect FILE [--nal] [--json]   explain an H.264/H.265 Annex B or ADTS AAC stream

    run `streamkit COMMAND --help` for a command's options
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
    case "record":
        if rest.contains("--help") { print(RecordCommand.usage); exit(0) }
        exit(try await RecordCommand(rest).run())
    case "encode":
        if rest.contains("--help") { print(EncodeCommand.usage); exit(0) }
        exit(try await EncodeCommand(rest).run())
    case "decode":
        if rest.contains("--help") { print(DecodeCommand.usage); exit(0) }
        exit(try await DecodeCommand(rest).run())
    case "engines":
        exit(EnginesCommand().run())
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

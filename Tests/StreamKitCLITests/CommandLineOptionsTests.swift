import Foundation
import Testing
import TestSupport

/// The declared options as a user meets them: the usage and `--help` made from the declarations, the
/// README's copy of the usage, and the errors for unknown options and bad or missing values. None of
/// these reach an engine, so they run in every build.
struct CommandLineOptionsTests {
    static let commands = ["record", "encode", "decode", "engines", "inspect"]

    /// The fenced block under "## The command-line tool" in the README.
    private func readmeUsage() throws -> String {
        let readme = try String(contentsOf: MediaFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: "## The command-line tool"),
              let open = readme.range(of: "```\n", range: section.upperBound..<readme.endIndex),
              let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex) else {
            throw TestFailure("README.md has no fenced usage block under \"## The command-line tool\"")
        }
        return String(readme[open.upperBound..<close.lowerBound])
    }

    @Test func readmeShowsExactlyWhatHelpPrints() throws {
        let help = try CLI.run(["help"])
        #expect(help.status == 0)
        let printed = help.text.hasSuffix("\n") ? String(help.text.dropLast()) : help.text
        #expect(try readmeUsage() == printed, "update README.md's usage block with `streamkit help`")
    }

    @Test(arguments: commands)
    func helpCommandAndHelpFlagPrintTheSameText(command: String) throws {
        let viaHelp = try CLI.run(["help", command])
        let viaFlag = try CLI.run([command, "--help"])
        let viaShort = try CLI.run([command, "-h"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0 && viaShort.status == 0)
        #expect(viaHelp.text.hasPrefix("usage: streamkit \(command)"))
        #expect(viaHelp.text == viaFlag.text && viaFlag.text == viaShort.text)
    }

    /// Every option the synopsis shows has a line of help, and the other way round.
    @Test(arguments: commands)
    func synopsisAndOptionListAgree(command: String) throws {
        let help = try CLI.run(["help", command]).text
        let parts = help.components(separatedBy: "\noptions:\n")
        try #require(parts.count == 2)
        let usage = try #require(parts[0].components(separatedBy: "\n\n").first)
        let synopsis = Set(usage.split(whereSeparator: { " []\n".contains($0) }).filter { $0.hasPrefix("-") }.map(String.init))
        let listed = Set(parts[1].split(separator: "\n").compactMap { line -> String? in
            line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.split(separator: ",")[0]) }
        })
        // The synopsis writes -o for --output; --help is listed, not in the synopsis.
        let expanded = Set(synopsis.map { $0 == "-o" ? "--output" : $0 })
        #expect(expanded == listed.subtracting(["--help"]), "\(command): synopsis \(expanded.sorted()) vs list \(listed.sorted())")
    }

    @Test func audioBitRateIsDocumented() throws {
        #expect(try CLI.run(["help"]).text.contains("--audio-bitrate RATE"))
        for command in ["record", "encode"] {
            #expect(try CLI.run(["help", command]).text.contains("--audio-bitrate RATE"))
        }
    }

    @Test(arguments: [
        (["--fps", "abc"], "--fps: 'abc' is not a whole number in 1…240"),
        (["--fps", "0"], "--fps: '0' is not a whole number in 1…240"),
        (["--fps=abc"], "--fps: 'abc' is not"),
        (["--frames", "-3"], "--frames: '-3' is not a positive whole number"),
        (["--qp", "52"], "--qp: '52' is not a whole number in 0…51"),
        (["--bitrate", "fast"], "--bitrate: 'fast' is not a positive bit rate"),
        (["--size", "640"], "--size: '640' is not a size WIDTHxHEIGHT"),
        (["--profile", "ultra"], "--profile: 'ultra' is an unknown profile (use baseline, main, high or high444)"),
        (["--fsp", "25"], "unknown option --fsp (did you mean --fps?)"),
        (["--fps"], "--fps needs a value (N)"),
        (["--fps", "--qp", "20"], "--fps needs a value (N)"),
        (["--fps", "25", "--fps", "30"], "--fps is given more than once"),
        (["--qp", "20", "--bitrate", "1M"], "--qp excludes --bitrate: a constant quantiser has no rate control"),
        (["extra"], "unexpected argument 'extra'"),
    ])
    func badArgumentsNameTheOptionAndPointToHelp(arguments: [String], message: String) throws {
        let directory = try ExternalTool.temporaryDirectory()
        let output = directory.appendingPathComponent("x.h264").path
        let result = try CLI.run(["encode", "testsrc", "-o", output] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains("streamkit encode: \(message)"), "\(result.standardError)")
        #expect(result.standardError.contains("run `streamkit encode --help` for its options"))
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is written for a bad command line")
    }

    @Test func missingInputOutputAndFlagValues() throws {
        let noOutput = try CLI.run(["encode", "testsrc"])
        #expect(noOutput.status == 2 && noOutput.standardError.contains("missing -o PATH"), "\(noOutput.standardError)")
        let noInput = try CLI.run(["decode", "-o", "x.y4m"])
        #expect(noInput.status == 2 && noInput.standardError.contains("missing INPUT"), "\(noInput.standardError)")
        let flagValue = try CLI.run(["inspect", "--json=yes", "x.h264"])
        #expect(flagValue.status == 2 && flagValue.standardError.contains("--json takes no value"), "\(flagValue.standardError)")
        let unknownCommand = try CLI.run(["help", "transmogrify"])
        #expect(unknownCommand.status == 2 && unknownCommand.standardError.contains("unknown command"))
    }

    @Test func optionsThatDoNotApplyAreRefused() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let audio = try CLI.run(["encode", "sine", "-o", directory.appendingPathComponent("x.aac").path, "--qp", "20"])
        #expect(audio.status == 2 && audio.standardError.contains("--qp applies to video"), "\(audio.standardError)")
        let video = try CLI.run(["encode", "testsrc", "-o", directory.appendingPathComponent("x.h264").path, "--sample-rate", "8000"])
        #expect(video.status == 2 && video.standardError.contains("--sample-rate applies to audio"), "\(video.standardError)")
        let both = try CLI.run(["encode", "sine", "-o", directory.appendingPathComponent("y.aac").path,
                                "--bitrate", "64k", "--audio-bitrate", "32k"])
        #expect(both.status == 2 && both.standardError.contains("give one"), "\(both.standardError)")
        let lossy = try CLI.run(["encode", "testsrc", "-o", directory.appendingPathComponent("z.h264").path,
                                 "--qp", "0", "--profile", "high"])
        #expect(lossy.status == 2 && lossy.standardError.contains("High 4:4:4 Predictive"), "\(lossy.standardError)")
    }
}

// The subcommands of streamkit-benchmark as a table: a name, a usage line and what runs.
import Foundation

/// One subcommand of `streamkit-benchmark`.
struct BenchmarkCommand {
    /// What a subcommand reads before it runs.
    enum Input {
        /// Nothing: only options.
        case none
        /// A file's path (the benchmark reads it itself).
        case path
        /// A file's bytes (not empty).
        case bytes
    }

    /// The subcommand's name, the first argument.
    var name: String
    /// Its arguments after the name, for the usage text (for example `FILE [--rounds N]`).
    var synopsis: String
    /// What it reads.
    var input: Input
    /// The benchmark.
    var run: (BenchmarkInvocation) throws -> Void
}

/// The command line of one run: the input and the `--name N` options.
struct BenchmarkInvocation {
    /// The arguments after the subcommand's name.
    let arguments: ArraySlice<String>
    /// The input file's path (empty for ``BenchmarkCommand/Input/none``).
    let path: String
    /// The input file's bytes (empty unless ``BenchmarkCommand/Input/bytes``).
    let file: [UInt8]

    /// An option's value: `--name N` as a whole number of at least `minimum`, else `value`.
    /// - Parameters:
    ///   - name: the option, for example `--rounds`.
    ///   - value: the default.
    ///   - minimum: the smallest value taken (a smaller one reads as the default).
    /// - Returns: the value.
    func option(_ name: String, default value: Int, minimum: Int = .min) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
              let parsed = Int(arguments[index + 1]), parsed >= minimum else { return value }
        return parsed
    }

    /// `--megabytes` (100 by default): the size the input is repeated to.
    var megabytes: Int { option("--megabytes", default: 100) }
    /// `--rounds` (5 by default): timings per measurement.
    var rounds: Int { option("--rounds", default: 5) }
}

extension BenchmarkCommand {
    /// Runs the subcommand that `arguments` names, or prints the usage of all of them and exits with 2.
    /// - Parameters:
    ///   - arguments: the command line without the program's name.
    ///   - commands: the subcommands.
    static func dispatch(_ arguments: ArraySlice<String>, among commands: [BenchmarkCommand]) throws {
        let usage = "usage: " + commands.map { "streamkit-benchmark \($0.name) \($0.synopsis)" }.joined(separator: "\n       ")
        guard let command = commands.first(where: { $0.name == arguments.first }),
              command.input == .none || arguments.count >= 2 else { fail(usage, code: 2) }
        let rest = arguments.dropFirst()
        var path = "", file: [UInt8] = []
        if command.input != .none { path = rest[rest.startIndex] }
        if command.input == .bytes {
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { fail("cannot read \(path)") }
            file = [UInt8](data)
        }
        try command.run(BenchmarkInvocation(arguments: rest, path: path, file: file))
        if sink == 42 { print("") }  // keeps the work observable
    }
}

/// The words after a sub-command, split into positional arguments, `--flag`s and `--option value`s.
///
/// Options may be written `--name value` or `--name=value`; `-o` is `--output`. Unknown names are
/// reported by ``rejectUnknown(allowedFlags:allowedOptions:)`` so a typo never passes silently.
struct CommandLineArguments {
    /// Arguments that are not options, in order.
    private(set) var positionals: [String] = []
    /// Flags that were given (`--nal`, `--json`).
    private(set) var flags: Set<String> = []
    /// Options with their values (`--frames 200`).
    private(set) var options: [String: String] = [:]

    /// Splits `words`.
    /// - Parameters:
    ///   - words: the arguments after the sub-command.
    ///   - valueOptions: names of options that take a value (without the dashes).
    /// - Throws: ``CommandLineError/missingValue(_:)`` when an option has no value.
    init(_ words: [String], valueOptions: Set<String>) throws(CommandLineError) {
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), word != "-" else {
                positionals.append(word)
                continue
            }
            var name = String(word.drop { $0 == "-" })
            if name == "o" { name = "output" }
            if let equals = name.firstIndex(of: "=") {
                options[String(name[..<equals])] = String(name[name.index(after: equals)...])
            } else if valueOptions.contains(name) {
                guard index < words.count else { throw .missingValue(name) }
                options[name] = words[index]
                index += 1
            } else {
                flags.insert(name)
            }
        }
    }

    /// Fails on any flag or option that the command does not know.
    /// - Parameters:
    ///   - allowedFlags: flags the command accepts.
    ///   - allowedOptions: options the command accepts.
    /// - Throws: ``CommandLineError/unknownOption(_:)`` naming the first unknown one.
    func rejectUnknown(allowedFlags: Set<String>, allowedOptions: Set<String>) throws(CommandLineError) {
        for flag in flags.sorted() where !allowedFlags.contains(flag) { throw .unknownOption(flag) }
        for option in options.keys.sorted() where !allowedOptions.contains(option) { throw .unknownOption(option) }
    }
}

/// A command line that cannot be run.
enum CommandLineError: Error, CustomStringConvertible {
    /// An option was given without its value.
    case missingValue(String)
    /// An option or flag the command does not know.
    case unknownOption(String)
    /// A required argument is missing; the text says which.
    case missingArgument(String)
    /// An argument has a value that is not allowed; the text says why.
    case invalidValue(String)

    var description: String {
        switch self {
        case let .missingValue(name): return "option --\(name) needs a value"
        case let .unknownOption(name): return "unknown option --\(name)"
        case let .missingArgument(text): return "missing \(text)"
        case let .invalidValue(text): return text
        }
    }
}

/// Anything a command can list among its options: an ``OptionSpec`` of any value type.
protocol OptionDeclaring: Sendable {
    /// The option as its table stores it.
    var declaration: OptionDeclaration { get }
}

extension OptionSpec: OptionDeclaring {}

/// A command's declaration: its name, what it does, its positional arguments and its options. The
/// parser (``parse(_:)``), the usage and `--help` (``Usage``) are made from it, so an option exists
/// in one place only.
struct OptionTable: Sendable {
    /// `--help` / `-h`, which every command takes.
    static let help = OptionSpec(flag: "--help", short: "-h", help: "show this help")

    /// The sub-command, for example `encode`.
    let command: String
    /// One line: what the command does.
    let summary: String
    /// The positional arguments, all required, in order.
    let positionals: [PositionalSpec]
    /// The options, in the order the usage shows them (`--help` last).
    let options: [OptionDeclaration]
    /// Lines printed after the options in `--help`.
    let notes: [String]

    /// Declares a command.
    /// - Parameters:
    ///   - command: the sub-command's name.
    ///   - summary: one line: what it does.
    ///   - positionals: its positional arguments, in order.
    ///   - options: its options, in the order the usage shows them.
    ///   - notes: lines for the end of `--help`.
    init(command: String, summary: String, positionals: [PositionalSpec] = [], options: [any OptionDeclaring],
         notes: [String] = []) {
        self.command = command
        self.summary = summary
        self.positionals = positionals
        self.options = options.map(\.declaration) + [Self.help.declaration]
        self.notes = notes
    }

    /// The declaration written `word` (`--fps` or `-o`), if the command has one.
    /// - Parameter word: an option name with its dashes.
    /// - Returns: the declaration.
    func declaration(named word: String) -> OptionDeclaration? {
        options.first { $0.name == word || $0.shortName == word }
    }

    /// Reads the words after the sub-command: `--name value`, `--name=value`, `-x value`, flags, and
    /// positional arguments; `--` ends the options. When `--help` or `-h` comes before any `--`,
    /// nothing else is checked and the result only says that help was asked for.
    /// - Parameter words: the arguments after the sub-command.
    /// - Returns: the values given, with this table's defaults.
    /// - Throws: ``CommandLineError`` for an unknown or repeated option, a missing or bad value, a
    ///   missing required option or argument, or an extra argument.
    func parse(_ words: [String]) throws(CommandLineError) -> ParsedOptions {
        let declared = Set(options.map(\.name))
        var defaults: [String: any Sendable] = [:]
        for option in options { if let value = option.defaultValue { defaults[option.name] = value } }
        if words.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            return ParsedOptions(declared: declared, given: [:], defaults: defaults, positionals: [:], isHelpRequested: true)
        }
        var given: [String: any Sendable] = [:]
        var arguments: [String] = []
        var optionsEnded = false
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                arguments.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = declaration(named: name) else {
                throw .unknownOption(name, suggestion: suggestion(for: name))
            }
            guard given[option.name] == nil else { throw .repeatedOption(option.name) }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw .unexpectedValue(option: option.name) }
                given[option.name] = true
                continue
            }
            let text: String
            if let inlineValue {
                text = inlineValue
            } else if index < words.count, declaration(named: words[index]) == nil, words[index] != "--" {
                text = words[index]
                index += 1
            } else {
                throw .missingValue(option: option.name, valueName: valueName)
            }
            do {
                given[option.name] = try option.parse(text)
            } catch {
                throw .invalidValue(option: option.name, value: text, reason: error.reason)
            }
        }
        if arguments.count < positionals.count, !positionals[arguments.count].isOptional {
            throw .missingArgument(positionals[arguments.count].name)
        }
        if arguments.count > positionals.count, positionals.last?.repeats != true {
            throw .unexpectedArgument(arguments[positionals.count])
        }
        for option in options where option.isRequired && given[option.name] == nil {
            throw .missingOption("\(option.shortName ?? option.name) \(option.valueName ?? "")")
        }
        var byName: [String: String] = [:]
        for (spec, word) in zip(positionals, arguments) { byName[spec.name] = word }
        return ParsedOptions(declared: declared, given: given, defaults: defaults, positionals: byName,
                             repeated: Array(arguments.dropFirst(positionals.count)), isHelpRequested: false)
    }

    /// The declared name closest to a mistyped one (at most two edits, or a prefix), if any.
    private func suggestion(for word: String) -> String? {
        let typed = Array(word.drop { $0 == "-" })
        guard !typed.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for option in options {
            let candidate = Array(option.name.dropFirst(2))
            let distance = candidate.starts(with: typed) ? 1 : Self.editDistance(typed, candidate)
            if distance <= 2, distance < (best?.distance ?? .max) { best = (option.name, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance.
    private static func editDistance(_ left: [Character], _ right: [Character]) -> Int {
        var previous = Array(0...right.count)
        for (i, a) in left.enumerated() {
            var current = [i + 1]
            current.reserveCapacity(right.count + 1)
            for (j, b) in right.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1)))
            }
            previous = current
        }
        return previous[right.count]
    }
}

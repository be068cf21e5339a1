/// The usage texts, made from the commands' ``OptionTable``s: the one-line synopsis of a command,
/// its `--help`, and the overview `streamkit help` prints (which the README's command-line section
/// shows verbatim).
enum Usage {
    /// The widest line the texts wrap to.
    static let lineWidth = 112

    /// The program's name as the usage shows it.
    static let program = "streamkit"

    /// `streamkit encode INPUT -o PATH [--frames N] …`, wrapped under the first option.
    /// - Parameter table: the command.
    /// - Returns: the synopsis (possibly several lines).
    static func synopsis(of table: OptionTable) -> String {
        var words = table.positionals.map { $0.isOptional ? "[\($0.name)]" : $0.repeats ? "\($0.name) [\($0.name)…]" : $0.name }
        for option in table.options where option.isRequired { words.append(spelling(of: option)) }
        for option in table.options where !option.isRequired && option.name != OptionTable.help.name {
            words.append("[\(spelling(of: option))]")
        }
        return wrap(words, prefix: "\(program) \(table.command)", separated: true)
    }

    /// `streamkit COMMAND --help` and `streamkit help COMMAND`.
    /// - Parameter table: the command.
    /// - Returns: the synopsis, summary, arguments, options with their defaults, and notes.
    static func help(for table: OptionTable) -> String {
        var lines = ["usage: " + synopsis(of: table).replacingAll("\n", with: "\n       "), "", table.summary]
        if !table.positionals.isEmpty {
            lines += ["", "arguments:"]
            let width = table.positionals.map(\.name.count).max() ?? 0
            for argument in table.positionals {
                let prefix = "  " + argument.name.padded(to: width + 2)
                lines.append(wrap(argument.help.split(separator: " ").map(String.init), prefix: prefix))
            }
        }
        lines += ["", "options:"]
        let labels = table.options.map(label(of:))
        let width = labels.map(\.count).max() ?? 0
        for (option, label) in zip(table.options, labels) {
            var help = option.help
            if option.isRequired {
                help += " (required)"
            } else if let shown = option.defaultDescription {
                help += " (default: \(shown))"
            }
            let prefix = "  " + label.padded(to: width + 2)
            lines.append(wrap(help.split(separator: " ").map(String.init), prefix: prefix))
        }
        if !table.notes.isEmpty { lines += [""] + table.notes }
        return lines.joined(separator: "\n")
    }

    /// What `streamkit help` prints: every command's synopsis and summary.
    /// - Parameter tables: the commands, in order.
    /// - Returns: the overview.
    static func overview(of tables: [OptionTable]) -> String {
        var lines = ["usage: \(program) COMMAND [options]", ""]
        for table in tables {
            lines.append(synopsis(of: table))
            lines.append("    " + table.summary)
        }
        lines.append("\(program) help [COMMAND]")
        lines.append("    this text, or one command's options (as `\(program) COMMAND --help`)")
        return lines.joined(separator: "\n")
    }

    /// The pointer printed after a command-line error.
    /// - Parameter command: the sub-command.
    /// - Returns: "run `streamkit encode --help` for its options".
    static func helpPointer(for command: String) -> String {
        "run `\(program) \(command) --help` for its options"
    }

    /// `-o PATH`, `--fps N`, `--no-audio`.
    private static func spelling(of option: OptionDeclaration) -> String {
        let name = option.shortName ?? option.name
        return option.valueName.map { "\(name) \($0)" } ?? name
    }

    /// `-o, --output PATH` or `    --fps N`.
    private static func label(of option: OptionDeclaration) -> String {
        let names = (option.shortName.map { "\($0), " } ?? "    ") + option.name
        return option.valueName.map { "\(names) \($0)" } ?? names
    }

    /// Joins words into lines no wider than ``lineWidth``, later lines indented under the first word.
    /// - Parameters:
    ///   - words: the words.
    ///   - prefix: the start of the first line.
    ///   - separated: whether a space goes between the prefix and the first word.
    private static func wrap(_ words: [String], prefix: String, separated: Bool = false) -> String {
        let indent = String(repeating: " ", count: prefix.count + (separated ? 1 : 0))
        var lines: [String] = []
        var line = prefix
        var lineHasWord = separated
        for word in words {
            if lineHasWord, line.count + 1 + word.count > lineWidth {
                lines.append(line)
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

private extension String {
    /// The string followed by spaces up to `width` characters (unchanged if longer).
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    /// Every `target` replaced by `replacement` (Foundation-free).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

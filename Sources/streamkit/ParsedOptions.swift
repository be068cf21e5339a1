/// What ``OptionTable/parse(_:)`` read: the values given on the command line, kept apart from the
/// table's defaults so a command can tell "`--fps 30` given" from "`--fps` not given".
struct ParsedOptions: Sendable {
    /// The names the table declares (to catch a lookup of an option the command did not list).
    private let declared: Set<String>
    /// Parsed values of the options given, by long name.
    private let given: [String: any Sendable]
    /// The table's defaults, by long name.
    private let defaults: [String: any Sendable]
    /// The positional arguments by placeholder.
    private let positionals: [String: String]
    /// The words after the last positional, when it repeats.
    private let repeated: [String]
    /// Whether `--help` or `-h` was given (then nothing else was read).
    let isHelpRequested: Bool

    /// Creates the result; made by ``OptionTable/parse(_:)``.
    init(declared: Set<String>, given: [String: any Sendable], defaults: [String: any Sendable],
         positionals: [String: String], repeated: [String] = [], isHelpRequested: Bool) {
        self.declared = declared
        self.given = given
        self.defaults = defaults
        self.positionals = positionals
        self.repeated = repeated
        self.isHelpRequested = isHelpRequested
    }

    /// Whether the command's table declares the option (a shared option group reads what only some commands take).
    /// - Parameter option: the option.
    /// - Returns: `true` when the command takes it.
    func declares<Value>(_ option: OptionSpec<Value>) -> Bool {
        declared.contains(option.name)
    }

    /// The value given on the command line.
    /// - Parameter option: the option.
    /// - Returns: its value, or `nil` when it was not given.
    func given<Value>(_ option: OptionSpec<Value>) -> Value? {
        assert(declared.contains(option.name), "\(option.name) is not in the command's table")
        return given[option.name] as? Value
    }

    /// Whether the option was given on the command line.
    /// - Parameter option: the option.
    /// - Returns: `true` if it was given, whatever its value.
    func isGiven<Value>(_ option: OptionSpec<Value>) -> Bool {
        given(option) != nil
    }

    /// The value given, else the command's default for it.
    /// - Parameter option: the option.
    /// - Returns: the value, or `nil` when it was not given and has no default.
    func value<Value>(_ option: OptionSpec<Value>) -> Value? {
        given(option) ?? defaults[option.name] as? Value
    }

    /// Whether a flag was given.
    /// - Parameter flag: the flag.
    /// - Returns: `true` if it was given.
    func isSet(_ flag: OptionSpec<Bool>) -> Bool {
        given(flag) ?? false
    }

    /// A value the command cannot do without: given, or defaulted by the table.
    /// - Parameter option: a required option or one with a default.
    /// - Returns: the value.
    /// - Throws: ``CommandLineError/missingOption(_:)`` when there is none.
    func required<Value>(_ option: OptionSpec<Value>) throws(CommandLineError) -> Value {
        guard let value = value(option) else { throw .missingOption("\(option.shortName ?? option.name) \(option.valueName ?? "")") }
        return value
    }

    /// A positional argument.
    /// - Parameter argument: its declaration in the table.
    /// - Returns: the word given.
    /// - Throws: ``CommandLineError/missingArgument(_:)`` when the table does not declare it.
    func argument(_ argument: PositionalSpec) throws(CommandLineError) -> String {
        guard let word = positionals[argument.name] else { throw .missingArgument(argument.name) }
        return word
    }
}

extension ParsedOptions {
    /// A repeating positional argument: its first word and every word after it.
    /// - Parameter argument: the last positional, declared with `repeats`.
    /// - Returns: the words, at least one.
    /// - Throws: ``CommandLineError/missingArgument(_:)`` when none was given.
    func arguments(_ argument: PositionalSpec) throws(CommandLineError) -> [String] {
        [try self.argument(argument)] + repeated
    }

    /// An optional positional argument, if given.
    /// - Parameter argument: its declaration.
    /// - Returns: the word, or `nil`.
    func optionalArgument(_ argument: PositionalSpec) -> String? {
        try? self.argument(argument)
    }
}

extension ParsedOptions {
    /// The first of some options that was given, for "this option does not apply here" errors.
    /// - Parameter options: the options to look for, in order.
    /// - Returns: its long name, or `nil` when none was given.
    func firstGiven(among options: [any OptionDeclaring]) -> String? {
        options.map(\.declaration.name).first { given[$0] != nil }
    }
}

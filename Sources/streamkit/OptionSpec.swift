/// One command-line option, declared once: its name, short alias, value and how it is parsed and
/// checked, its default, and its help. The usage, `--help`, the parser and the error for a bad value
/// are all made from it (see ``OptionTable``).
///
/// A command lists the options it uses in its ``OptionTable``; a command that needs another default
/// or needs the option to be given uses a variant (``defaulting(to:shown:)``, ``required()``) of the
/// same declaration.
struct OptionSpec<Value: Sendable>: Sendable {
    /// The long name with its dashes, for example `--fps`.
    let name: String
    /// The one-letter alias with its dash, for example `-o`, if any.
    let shortName: String?
    /// The value's placeholder in the usage (`N`, `WxH`, `h264|hevc`); `nil` for a flag.
    let valueName: String?
    /// One line of help.
    let help: String
    /// The value used when the option is not given, if any.
    let defaultValue: Value?
    /// How the default is shown in `--help` ("30", "one key frame per second"), if there is one.
    let defaultDescription: String?
    /// Whether the command fails without it.
    let isRequired: Bool
    /// Reads and checks a value.
    let parse: @Sendable (String) throws(OptionValueError) -> Value

    /// Declares an option that takes a value.
    /// - Parameters:
    ///   - name: the long name with its dashes, for example `--fps`.
    ///   - shortName: a one-letter alias with its dash, for example `-o`.
    ///   - valueName: the placeholder shown in the usage, for example `N`.
    ///   - help: one line of help.
    ///   - defaultValue: the value when the option is not given.
    ///   - defaultDescription: how the default is shown in help; by default the value itself.
    ///   - parse: reads and checks a value; its error's reason completes "'VALUE' …".
    init(_ name: String, short shortName: String? = nil, value valueName: String, help: String,
         default defaultValue: Value? = nil, shown defaultDescription: String? = nil,
         parse: @escaping @Sendable (String) throws(OptionValueError) -> Value) {
        self.name = name
        self.shortName = shortName
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.defaultDescription = defaultDescription ?? defaultValue.map { "\($0)" }
        self.isRequired = false
        self.parse = parse
    }

    private init(copying option: OptionSpec, defaultValue: Value?, defaultDescription: String?, isRequired: Bool) {
        name = option.name
        shortName = option.shortName
        valueName = option.valueName
        help = option.help
        parse = option.parse
        self.defaultValue = defaultValue
        self.defaultDescription = defaultDescription
        self.isRequired = isRequired
    }

    /// The same option with another default, for a command whose default differs.
    /// - Parameters:
    ///   - value: the default value, or `nil` for none.
    ///   - shown: how the default is shown in help; by default the value itself.
    /// - Returns: the variant.
    func defaulting(to value: Value?, shown: String? = nil) -> OptionSpec {
        OptionSpec(copying: self, defaultValue: value, defaultDescription: shown ?? value.map { "\($0)" }, isRequired: false)
    }

    /// The same option, documented with a default the command works out itself (for example "the
    /// input's own rate"); ``ParsedOptions/value(_:)`` then returns only a given value.
    /// - Parameter description: how the default is shown in help.
    /// - Returns: the variant.
    func documentingDefault(_ description: String) -> OptionSpec {
        OptionSpec(copying: self, defaultValue: nil, defaultDescription: description, isRequired: false)
    }

    /// The same option, required by the command.
    /// - Returns: the variant.
    func required() -> OptionSpec {
        OptionSpec(copying: self, defaultValue: nil, defaultDescription: nil, isRequired: true)
    }

    /// The option as its table stores it.
    var declaration: OptionDeclaration {
        let parse = self.parse
        return OptionDeclaration(name: name, shortName: shortName, valueName: valueName, help: help,
                                 defaultValue: defaultValue, defaultDescription: defaultDescription, isRequired: isRequired,
                                 parse: { (text: String) throws(OptionValueError) -> any Sendable in try parse(text) })
    }
}

extension OptionSpec where Value == Bool {
    /// Declares a flag: an option without a value, `true` when given.
    /// - Parameters:
    ///   - name: the long name with its dashes, for example `--json`.
    ///   - shortName: a one-letter alias with its dash.
    ///   - help: one line of help.
    init(flag name: String, short shortName: String? = nil, help: String) {
        self.name = name
        self.shortName = shortName
        self.valueName = nil
        self.help = help
        self.defaultValue = false
        self.defaultDescription = nil
        self.isRequired = false
        self.parse = { _ throws(OptionValueError) in true }
    }
}

/// An option as its ``OptionTable`` stores it, whatever the type of its value.
struct OptionDeclaration: Sendable {
    /// The long name with its dashes.
    let name: String
    /// The one-letter alias with its dash, if any.
    let shortName: String?
    /// The value's placeholder; `nil` for a flag.
    let valueName: String?
    /// One line of help.
    let help: String
    /// The value used when the option is not given.
    let defaultValue: (any Sendable)?
    /// How the default is shown in help.
    let defaultDescription: String?
    /// Whether the command fails without it.
    let isRequired: Bool
    /// Reads and checks a value.
    let parse: @Sendable (String) throws(OptionValueError) -> any Sendable

    /// Whether the option is a flag (takes no value).
    var isFlag: Bool { valueName == nil }
}

/// A positional argument of a command (`INPUT`, `FILE`).
struct PositionalSpec: Sendable {
    /// The placeholder shown in the usage.
    let name: String
    /// One line of help.
    let help: String
    /// Whether the command runs without it (only the last positional may be optional; `[INPUT]` in the usage).
    let isOptional: Bool
    /// Whether more words of the same kind may follow it (the last positional only; `DEST [DEST…]` in the usage).
    let repeats: Bool

    /// Declares a positional argument.
    /// - Parameters:
    ///   - name: the placeholder, for example `INPUT`.
    ///   - help: one line of help.
    ///   - optional: whether it may be left out (the last positional only).
    ///   - repeats: whether more words of its kind may follow (the last positional only).
    init(_ name: String, help: String, optional: Bool = false, repeats: Bool = false) {
        self.name = name
        self.help = help
        isOptional = optional
        self.repeats = repeats
    }
}

/// A command line that cannot be run. Every case names the option or argument at fault; `main`
/// prints it after the command's name, with a pointer to the command's `--help`.
enum CommandLineError: Error, CustomStringConvertible {
    /// An option the command does not declare, with the closest declared name if one is near.
    case unknownOption(String, suggestion: String?)
    /// An option that takes a value was the last word, or was followed by another option.
    case missingValue(option: String, valueName: String)
    /// A flag was written with a value (`--json=yes`).
    case unexpectedValue(option: String)
    /// The same option was given twice.
    case repeatedOption(String)
    /// An option's value did not parse or is out of range.
    case invalidValue(option: String, value: String, reason: String)
    /// A required option was not given.
    case missingOption(String)
    /// A required positional argument was not given.
    case missingArgument(String)
    /// A positional argument beyond those the command takes.
    case unexpectedArgument(String)
    /// Options that are each valid but cannot be used together, or do not fit the input or output;
    /// the text says why.
    case conflict(String)

    var description: String {
        switch self {
        case let .unknownOption(name, suggestion):
            return "unknown option \(name)" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        case let .missingValue(option, valueName): return "\(option) needs a value (\(valueName))"
        case let .unexpectedValue(option): return "\(option) takes no value"
        case let .repeatedOption(option): return "\(option) is given more than once"
        case let .invalidValue(option, value, reason): return "\(option): '\(value)' \(reason)"
        case let .missingOption(option): return "missing \(option)"
        case let .missingArgument(name): return "missing \(name)"
        case let .unexpectedArgument(word): return "unexpected argument '\(word)'"
        case let .conflict(text): return text
        }
    }
}

/// Why a value does not fit its option, as the end of a sentence that starts with the value:
/// "'abc' **is not a positive whole number**".
struct OptionValueError: Error {
    /// The reason, for example "is not a positive whole number".
    var reason: String

    /// Creates an error.
    /// - Parameter reason: the end of the sentence "'VALUE' …".
    init(_ reason: String) {
        self.reason = reason
    }
}

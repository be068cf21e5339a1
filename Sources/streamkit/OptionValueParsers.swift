import Codecs

/// The value kinds options share, each a parse-and-check function for ``OptionSpec``. Their errors
/// complete the sentence "'VALUE' …", so `--fps abc` reads "--fps: 'abc' is not a whole number in 1…240".
enum OptionValueParsers {
    /// A whole number in a range.
    /// - Parameter range: the accepted values.
    /// - Returns: the parser.
    static func wholeNumber(in range: ClosedRange<Int>) -> @Sendable (String) throws(OptionValueError) -> Int {
        { text throws(OptionValueError) in
            guard let value = Int(text), range.contains(value) else {
                let kind: String
                switch (range.lowerBound, range.upperBound) {
                case (1, .max): kind = "a positive whole number"
                case (0, .max): kind = "a whole number ≥ 0"
                default: kind = "a whole number in \(range.lowerBound)…\(range.upperBound)"
                }
                throw OptionValueError("is not \(kind)")
            }
            return value
        }
    }

    /// A thread count: `auto` or a whole number in 1…256.
    static let threadCount: @Sendable (String) throws(OptionValueError) -> EncoderThreadCount = { text throws(OptionValueError) in
        guard let count = EncoderThreadCount(text.lowercased()), count.resolved(processors: 1) <= 256 else {
            throw OptionValueError("is not a thread count (a whole number in 1…256, or auto)")
        }
        return count
    }

    /// A positive, finite number of seconds.
    static let seconds: @Sendable (String) throws(OptionValueError) -> Double = { text throws(OptionValueError) in
        guard let value = Double(text), value > 0, value.isFinite else { throw OptionValueError("is not a positive number of seconds") }
        return value
    }

    /// Bits per second: "800k", "2M", "1500000".
    static let bitRate: @Sendable (String) throws(OptionValueError) -> Int = { text throws(OptionValueError) in
        let lower = text.lowercased()
        var multiplier = 1.0
        var digits = Substring(lower)
        if lower.hasSuffix("k") { multiplier = 1_000; digits = digits.dropLast() }
        if lower.hasSuffix("m") { multiplier = 1_000_000; digits = digits.dropLast() }
        guard let value = Double(digits), value > 0, value.isFinite, value * multiplier >= 1, value * multiplier < 1e12 else {
            throw OptionValueError("is not a positive bit rate in bits per second (for example 800k or 2M)")
        }
        return Int(value * multiplier)
    }

    /// A picture size `WIDTHxHEIGHT` with an even width and height (4:2:0).
    static let evenSize: @Sendable (String) throws(OptionValueError) -> PictureSize = { text throws(OptionValueError) in
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw OptionValueError("is not a size WIDTHxHEIGHT (for example 640x480)")
        }
        guard width % 2 == 0, height % 2 == 0 else { throw OptionValueError("is not allowed: 4:2:0 video needs an even width and height") }
        return PictureSize(width: width, height: height)
    }

    /// Any word that is not empty (a path, a device, a name).
    static let text: @Sendable (String) throws(OptionValueError) -> String = { text throws(OptionValueError) in
        guard !text.isEmpty else { throw OptionValueError("is empty") }
        return text
    }

    /// One of a set of words, matched without regard to case.
    /// - Parameters:
    ///   - noun: what a word names, for the error ("codec" → "is an unknown codec (use h264 or hevc)").
    ///   - choices: each value with its names, the first shown in the usage, the others accepted as aliases.
    /// - Returns: the parser.
    static func choice<Value: Sendable>(of noun: String,
                                        _ choices: [(names: [String], value: Value)]) -> @Sendable (String) throws(OptionValueError) -> Value {
        let table = choices.map { (names: $0.names.map { $0.lowercased() }, value: $0.value) }
        let shown = listing(choices.compactMap(\.names.first))
        return { text throws(OptionValueError) in
            let lower = text.lowercased()
            guard let match = table.first(where: { $0.names.contains(lower) }) else {
                throw OptionValueError("is an unknown \(noun) (use \(shown))")
            }
            return match.value
        }
    }

    /// The placeholder for a choice option: the first names joined by `|`.
    /// - Parameter names: the shown names.
    /// - Returns: for example `h264|hevc`.
    static func placeholder(_ names: [String]) -> String {
        names.joined(separator: "|")
    }

    /// "a, b or c".
    private static func listing(_ words: [String]) -> String {
        guard words.count > 1, let last = words.last else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// A picture size in pixels.
struct PictureSize: Sendable, Hashable, CustomStringConvertible {
    /// The width.
    var width: Int
    /// The height.
    var height: Int

    /// `640x480`.
    var description: String { "\(width)x\(height)" }
}

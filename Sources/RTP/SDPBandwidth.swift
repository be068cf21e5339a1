/// A `b=` line (RFC 8866 §5.8): the proposed bandwidth, `AS` (application specific) for example.
public struct SDPBandwidth: Sendable, Hashable {
    /// The modifier: `CT`, `AS`, `TIAS`, `RS`, `RR` … (kept as written).
    public var type: String
    /// The bandwidth: kilobits per second for `CT` and `AS`, bits per second for `TIAS`.
    public var value: Int

    /// Creates a bandwidth line.
    /// - Parameters:
    ///   - type: the modifier.
    ///   - value: the bandwidth in the modifier's unit.
    public init(type: String, value: Int) {
        self.type = type
        self.value = value
    }

    /// Reads `<bwtype>:<bandwidth>`.
    /// - Parameters:
    ///   - text: the text after `b=`.
    ///   - line: the line number, for errors.
    /// - Throws: ``SDPError/invalidField(line:field:value:)``.
    init(parsing text: Substring, line: Int) throws(SDPError) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
              let number = Int(text[text.index(after: colon)...].trimmingSDPSpaces), number >= 0 else {
            throw .invalidField(line: line, field: "b=", value: String(text))
        }
        type = String(text[..<colon])
        value = number
    }

    /// The line's value: `AS:256`.
    public var text: String { "\(type):\(value)" }
}

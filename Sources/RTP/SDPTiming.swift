/// A `t=` line and the `r=` lines after it (RFC 8866 §5.9, §5.10): when the session is active.
public struct SDPTiming: Sendable, Hashable {
    /// The start time in NTP seconds; 0 for an unbounded session.
    public var start: UInt64
    /// The stop time in NTP seconds; 0 for an unbounded session.
    public var stop: UInt64
    /// The `r=` lines that follow, kept as written.
    public var repeatTimes: [String]

    /// Creates a timing line; the default, `t=0 0`, is a permanent session (what live streams write).
    /// - Parameters:
    ///   - start: the start time in NTP seconds.
    ///   - stop: the stop time in NTP seconds.
    ///   - repeatTimes: `r=` values.
    public init(start: UInt64 = 0, stop: UInt64 = 0, repeatTimes: [String] = []) {
        self.start = start
        self.stop = stop
        self.repeatTimes = repeatTimes
    }

    /// Reads `<start-time> <stop-time>`.
    /// - Parameters:
    ///   - text: the text after `t=`.
    ///   - line: the line number, for errors.
    /// - Throws: ``SDPError/invalidField(line:field:value:)``.
    init(parsing text: Substring, line: Int) throws(SDPError) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 2, let start = UInt64(fields[0]), let stop = UInt64(fields[1]) else {
            throw .invalidField(line: line, field: "t=", value: String(text))
        }
        self.init(start: start, stop: stop)
    }
}

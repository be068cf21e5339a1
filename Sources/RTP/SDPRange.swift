/// An `a=range:` value (RFC 2326 §3.6, C.1.5): the part of the presentation that can be played —
/// `npt=0-` for a live stream, `npt=0-12.5` for a 12.5 s file.
public enum SDPRange: Sendable, Hashable {
    /// Normal play time in seconds; `start` is `nil` for `now`, `end` is `nil` for an open range.
    case normalPlayTime(start: Double?, end: Double?)
    /// Another unit (`smpte=`, `clock=`) or a form this module does not interpret, kept as written.
    case other(String)

    /// Reads `npt=<start>-[<end>]` (seconds, or `hh:mm:ss.f`); other text is kept as ``other(_:)``.
    /// - Parameter value: the text after `range:`.
    public init(attributeValue value: String) {
        let trimmed = value.trimmingSDPSpaces
        guard trimmed.lowercased().hasPrefix("npt="), let dash = trimmed.firstIndex(of: "-") else {
            self = .other(String(trimmed))
            return
        }
        let startText = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)..<dash].trimmingSDPSpaces
        let endText = trimmed[trimmed.index(after: dash)...].trimmingSDPSpaces
        let start = startText == "now" ? nil : Self.seconds(startText)
        let end = endText.isEmpty ? nil : Self.seconds(endText)
        if (startText != "now" && start == nil) || (!endText.isEmpty && end == nil) {
            self = .other(String(trimmed))
        } else {
            self = .normalPlayTime(start: start, end: end)
        }
    }

    /// The attribute value: `npt=0-` or `npt=0.000-12.500`.
    public var attributeValue: String {
        switch self {
        case let .normalPlayTime(start, end):
            let startText = start.map(Self.text) ?? "now"
            return "npt=\(startText)-" + (end.map(Self.text) ?? "")
        case let .other(text):
            return text
        }
    }

    /// Seconds from `12.5` or `00:00:12.5`.
    private static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 3 else { return nil }
        var total = 0.0
        for part in parts {
            guard let value = Double(part), value >= 0, value.isFinite else { return nil }
            total = total * 60 + value
        }
        return total
    }

    private static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? "\(Int64(seconds))" : "\(seconds)"
    }
}

// Small text helpers shared by the SDP readers.

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSDPSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

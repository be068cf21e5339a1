import Foundation

/// The counts `streamkit receive` prints at the end, read back from its standard error.
struct ReceiveReport {
    var videoGood = 0, videoLost = 0, videoWithheld = 0
    var audioGood = 0, audioLost = 0
    var packetsLost = 0, packetsReordered = 0, packetsDuplicated = 0
    var startOffsetMilliseconds: Double?
    var lossLines = 0

    /// Reads the report.
    /// - Parameter text: the standard error of `streamkit receive`.
    init(_ text: String) {
        func numbers(in line: Substring) -> [Double] {
            line.split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double($0) }
        }
        for line in text.split(separator: "\n") {
            let values = numbers(in: line)
            if line.hasPrefix("video frames:"), values.count >= 3 {
                (videoGood, videoLost, videoWithheld) = (Int(values[0]), Int(values[1]), Int(values[2]))
            } else if line.hasPrefix("audio frames:"), values.count >= 2 {
                (audioGood, audioLost) = (Int(values[0]), Int(values[1]))
            } else if line.hasPrefix("video packets:"), values.count >= 4 {
                (packetsLost, packetsReordered, packetsDuplicated) = (Int(values[1]), Int(values[2]), Int(values[3]))
            } else if line.hasPrefix("a/v start:"), let first = values.first {
                startOffsetMilliseconds = first
            } else if line.hasPrefix("video lost:") || line.hasPrefix("video withheld:") {
                lossLines += 1
            }
        }
    }
}

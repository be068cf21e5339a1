import Containers

/// The human-readable `inspect` report.
enum InspectText {
    /// Renders a report.
    /// - Parameters:
    ///   - report: what was read.
    ///   - path: the file's path, for the title line.
    ///   - includeNALUnits: whether to list every NAL unit (`--nal`).
    /// - Returns: the text, ending in a newline.
    static func render(_ report: StreamReport, path: String, includeNALUnits: Bool) -> String {
        var lines: [String] = []
        switch report {
        case let .video(video):
            lines.append("\(path): \(video.codec == .hevc ? "H.265/HEVC" : "H.264/AVC") Annex B elementary stream")
            lines.append("  profile      \(video.profile ?? "unknown"), level \(video.level ?? "unknown")")
            if let width = video.width, let height = video.height { lines.append("  size         \(width)x\(height)") }
            lines.append("  frame rate   \(video.frameRate.map { format($0, decimals: 3) + " fps" } ?? "not signalled")")
            let counts = video.frameTypeCounts
            let typeText = FrameType.allCases.compactMap { type in counts[type].map { "\(type.rawValue) \($0)" } }.joined(separator: ", ")
            lines.append("  frames       \(video.frames.count)\(typeText.isEmpty ? "" : " (\(typeText))"), key frames \(video.frames.filter(\.isKey).count)")
            lines.append("  GOP lengths  \(summarize(video.gopLengths))")
            lines.append("  NAL units    \(video.nalUnitCount)")
            lines.append("  size         \(video.byteCount) bytes")
            if let rate = video.averageBitRate { lines.append("  bitrate      \(format(rate / 1000, decimals: 1)) kbit/s average") }
            if includeNALUnits {
                lines.append("")
                lines.append("  #      offset      size  type  name")
                for unit in video.nalUnits {
                    let extra = unit.referenceIDC.map { "ref_idc \($0)" } ?? unit.temporalID.map { "tid \($0)" } ?? ""
                    lines.append("  \(pad(unit.index, 5)) \(pad(unit.byteOffset, 10)) \(pad(unit.size, 9))  \(pad(unit.type, 4))  \(unit.typeName)\(extra.isEmpty ? "" : "  (\(extra))")")
                }
            }
        case let .audio(audio):
            lines.append("\(path): AAC in ADTS")
            lines.append("  profile      \(audio.profile ?? "unknown")")
            lines.append("  sample rate  \(audio.sampleRate.map { "\($0) Hz" } ?? "unknown")")
            lines.append("  channels     \(audio.channelCount.map(String.init) ?? "defined by a PCE")")
            lines.append("  frames       \(audio.frameCount) (\(audio.rawDataBlockCount) raw data blocks)")
            if let duration = audio.duration { lines.append("  duration     \(format(duration, decimals: 3)) s") }
            if let rate = audio.averageBitRate { lines.append("  bitrate      \(format(rate / 1000, decimals: 1)) kbit/s average") }
            if audio.skippedByteCount > 0 { lines.append("  skipped      \(audio.skippedByteCount) bytes (tags or garbage)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "30 ×3, 12" — runs of equal GOP lengths collapsed.
    private static func summarize(_ lengths: [Int]) -> String {
        guard !lengths.isEmpty else { return "no key frame" }
        var parts: [String] = []
        var index = 0
        while index < lengths.count {
            var run = 1
            while index + run < lengths.count && lengths[index + run] == lengths[index] { run += 1 }
            parts.append(run > 1 ? "\(lengths[index]) ×\(run)" : "\(lengths[index])")
            index += run
        }
        return parts.joined(separator: ", ")
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let fraction = text[text.index(after: dot)...]
            if fraction.count < decimals { text += String(repeating: "0", count: decimals - fraction.count) }
        }
        return text
    }
}

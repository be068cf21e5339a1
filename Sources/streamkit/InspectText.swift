import Containers

/// The human-readable `inspect` report.
enum InspectText {
    /// Renders the summary of a stream (the `--nal` table, if asked for, follows it: ``nalUnitRow(_:)``).
    /// - Parameters:
    ///   - summary: what was read.
    ///   - path: the file's path, for the title line.
    /// - Returns: the text, ending in a newline.
    static func render(_ summary: StreamSummary, path: String) -> String {
        var lines: [String] = []
        switch summary {
        case let .video(video):
            let properties = video.properties
            lines.append("\(path): \(video.codec == .hevc ? "H.265/HEVC" : "H.264/AVC") Annex B elementary stream")
            lines.append("  profile      \(properties?.profile ?? "unknown"), level \(properties?.level ?? "unknown")")
            if let properties { lines.append("  size         \(properties.width)x\(properties.height)") }
            lines.append("  frame rate   \(properties?.frameRate.map { format($0, decimals: 3) + " fps" } ?? "not signalled")")
            let counts = video.frameTypeCounts
            let typeText = FrameType.allCases.compactMap { type in counts[type].map { "\(type.rawValue) \($0)" } }.joined(separator: ", ")
            lines.append("  frames       \(video.frameCount)\(typeText.isEmpty ? "" : " (\(typeText))"), key frames \(video.keyFrameCount)")
            lines.append("  GOP lengths  \(summarize(video.gopLengthRuns, omitted: video.omittedGOPCount))")
            lines.append("  NAL units    \(video.nalUnitCount)")
            lines.append("  size         \(video.byteCount) bytes")
            if let rate = video.averageBitRate { lines.append("  bitrate      \(format(rate / 1000, decimals: 1)) kbit/s average") }
        case let .audio(audio):
            lines.append("\(path): AAC in ADTS")
            lines.append("  profile      \(audio.profile ?? "unknown")")
            lines.append("  sample rate  \(audio.sampleRate.map { "\($0) Hz" } ?? "unknown")")
            lines.append("  channels     \(audio.channelCount.map(String.init) ?? "defined by a PCE")")
            var frames = "  frames       \(audio.frameCount) (\(audio.rawDataBlockCount) raw data blocks)"
            if let cut = audio.truncation { frames += ", then a truncated frame (\(cut.available) of \(cut.needed) bytes)" }
            lines.append(frames)
            if audio.crcProtectedFrameCount > 0 {
                let unchecked = audio.crcProtectedFrameCount - audio.crcCheckedFrameCount
                var crc = "  CRC          \(audio.crcProtectedFrameCount) frames protected, \(audio.crcCheckedFrameCount) checked, "
                crc += "\(audio.crcMismatchCount) \(audio.crcMismatchCount == 1 ? "mismatch" : "mismatches")"
                if unchecked > 0 { crc += "; \(unchecked) single-block frames not checked (their CRC covers the raw data block's elements)" }
                lines.append(crc)
            }
            if let duration = audio.duration { lines.append("  duration     \(format(duration, decimals: 3)) s") }
            if let rate = audio.averageBitRate { lines.append("  bitrate      \(format(rate / 1000, decimals: 1)) kbit/s average") }
            if audio.skippedByteCount > 0 { lines.append("  skipped      \(audio.skippedByteCount) bytes (tags or garbage)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The heading of the `--nal` table, after a blank line.
    static let nalUnitTableHeading = "\n  #      offset      size  type  name\n"

    /// One row of the `--nal` table.
    /// - Parameter unit: the NAL unit.
    /// - Returns: the row, with its newline.
    static func nalUnitRow(_ unit: NALUnitSummary) -> String {
        let extra = unit.referenceIDC.map { "ref_idc \($0)" } ?? unit.temporalID.map { "tid \($0)" } ?? ""
        return "  \(pad(unit.index, 5)) \(pad(unit.byteOffset, 10)) \(pad(unit.size, 9))  \(pad(unit.type, 4))  \(unit.typeName)\(extra.isEmpty ? "" : "  (\(extra))")\n"
    }

    /// "30 ×3, 12" — runs of equal GOP lengths collapsed.
    private static func summarize(_ runs: [GOPLengthRun], omitted: Int) -> String {
        guard !runs.isEmpty else { return "no key frame" }
        var text = runs.map { $0.count > 1 ? "\($0.length) ×\($0.count)" : "\($0.length)" }.joined(separator: ", ")
        if omitted > 0 { text += ", and \(omitted) more" }
        return text
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

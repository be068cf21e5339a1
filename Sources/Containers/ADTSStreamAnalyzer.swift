import AAC

/// Reads an ADTS stream for `inspect`: every frame, its format, skipped tags and bytes, a truncated tail.
public enum ADTSStreamAnalyzer {
    /// Analyses a whole ADTS stream.
    /// - Parameter bytes: the stream.
    /// - Returns: the format of the first frame, counts, and every problem (lost sync is an issue; an
    ///   ID3v2 tag is not).
    public static func analyze(_ bytes: [UInt8]) -> AudioStreamReport {
        var report = AudioStreamReport()
        report.byteCount = bytes.count
        let result = ADTSFrameScanner.scan(bytes)
        if let first = result.frames.first?.header {
            report.profile = first.audioObjectType.profileName
            report.sampleRate = first.samplingFrequencyIndex.hertz
            report.channelCount = first.channelConfiguration.channelCount
        }
        report.frameCount = result.frames.count
        for frame in result.frames {
            report.rawDataBlockCount += frame.header.rawDataBlockCount
            report.payloadByteCount += frame.payload.count
        }
        for skipped in result.skipped {
            report.skippedByteCount += skipped.count
            if case .lostSync = skipped.reason {
                report.issues.append(StreamIssue(byteOffset: skipped.byteOffset, message: skipped.description))
            }
        }
        if let truncation = result.truncation {
            report.issues.append(StreamIssue(byteOffset: truncation.byteOffset, unitIndex: truncation.frameIndex,
                                             message: truncation.description))
        }
        return report
    }
}

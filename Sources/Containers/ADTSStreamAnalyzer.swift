import AAC

/// Reads an ADTS stream for `inspect`, whole or in chunks cut anywhere: every frame, its format,
/// skipped tags and bytes, `crc_check` where present, a truncated tail.
///
/// Memory does not grow with the stream: the analyser holds at most one frame beyond the chunk it is
/// given, and the report holds counts and the first problems.
public struct ADTSStreamAnalyzer {
    // The analyser checks header CRCs itself, so a mismatch is counted as one, not taken for lost sync.
    private var scanner = ADTSFrameScanner(verifiesHeaderCRC: false)
    private var report = AudioStreamReport()

    /// Creates an analyser at the start of a stream.
    public init() {}

    /// Reads the next bytes of the stream.
    /// - Parameter chunk: bytes that follow those appended before; any length, cut anywhere.
    public mutating func append(_ chunk: UnsafeRawBufferPointer) {
        report.byteCount += chunk.count
        for event in scanner.append(chunk) { take(event) }
    }

    /// Reads the next bytes of the stream.
    /// - Parameter chunk: bytes that follow those appended before.
    public mutating func append(_ chunk: [UInt8]) {
        chunk.withUnsafeBytes { append($0) }
    }

    /// Ends the stream.
    /// - Returns: the format of the first frame, counts, and every problem (lost sync, a CRC mismatch
    ///   and a truncated last frame are issues; an ID3v2 tag is not).
    public mutating func finish() -> AudioStreamReport {
        for event in scanner.finish() { take(event) }
        return report
    }

    /// Analyses a whole ADTS stream.
    /// - Parameter bytes: the stream.
    /// - Returns: the report, as ``finish()`` gives it.
    public static func analyze(_ bytes: [UInt8]) -> AudioStreamReport {
        var analyzer = ADTSStreamAnalyzer()
        analyzer.append(bytes)
        return analyzer.finish()
    }

    private mutating func take(_ event: ADTSScanEvent) {
        switch event {
        case let .frame(frame):
            if report.frameCount == 0 {
                report.profile = frame.header.audioObjectType.profileName
                report.sampleRate = frame.header.samplingFrequencyIndex.hertz
                report.channelCount = frame.header.channelConfiguration.channelCount
            }
            report.frameCount += 1
            report.rawDataBlockCount += frame.header.rawDataBlockCount
            report.payloadByteCount += frame.payload.count
            check(frame)
        case let .skipped(skipped):
            report.skippedByteCount += skipped.count
            if case .lostSync = skipped.reason {
                report.record(StreamIssue(byteOffset: skipped.byteOffset, message: skipped.description))
            }
        case let .truncated(truncation):
            report.truncation = truncation
            report.record(StreamIssue(byteOffset: truncation.byteOffset, unitIndex: truncation.frameIndex,
                                      message: truncation.description))
        }
    }

    /// Counts a frame's CRC and verifies it where the header alone decides it.
    private mutating func check(_ frame: ADTSFrame) {
        guard frame.header.crcCheck != nil else { return }
        report.crcProtectedFrameCount += 1
        guard frame.header.numberOfRawDataBlocksInFrame > 0 else { return }
        report.crcCheckedFrameCount += 1
        do {
            try frame.verifyCRC()
        } catch {
            report.crcMismatchCount += 1
            report.record(StreamIssue(byteOffset: error.byteOffset, unitIndex: frame.index,
                                      message: "frame \(frame.index) at byte \(frame.byteOffset): \(error)"))
        }
    }
}

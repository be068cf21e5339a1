import Bitstream
import MediaCore

/// Reads an H.264 or H.265 Annex B stream for `inspect`, in chunks cut anywhere: every NAL unit,
/// grouped into access units (frames) in decode order, with picture types, key frames, picture order
/// and sizes.
///
/// Memory does not grow with the stream: the analyser keeps the NAL unit being received, the frame
/// being assembled and a ``VideoStreamSummary``; frames, NAL units and problems are handed out as
/// ``VideoStreamEvent``s as soon as they are certain.
///
/// ```swift
/// var analyzer = VideoStreamAnalyzer(format: .h264AnnexB)
/// for chunk in chunks { analyzer.append(chunk) { event in print(event) } }
/// let summary = analyzer.finish { event in print(event) }
/// ```
///
/// The analyser never stops at bad data: a NAL unit that cannot be read becomes a ``StreamIssue``
/// naming its byte offset, its index and the field at fault, and the scan goes on. A frame whose slices
/// could not be read is not counted (the issue says so).
public struct VideoStreamAnalyzer {
    /// The default for `maximumNALUnitSize`: 64 MiB, far above any conforming NAL unit at level 6.2.
    public static let defaultMaximumNALUnitSize = 64 << 20

    /// One access unit being collected.
    private struct AccessUnit {
        var startOffset: Int
        /// Becomes the frame's list: one allocation per access unit (room for the usual handful).
        var nalTypes: [Int]
        var picture: InterpretedPicture?

        init(startOffset: Int) {
            self.startOffset = startOffset
            nalTypes = []
            nalTypes.reserveCapacity(8)
        }
    }

    private var interpreter: any NALUnitInterpreter
    /// Splits the stream into NAL units, handed out as views into its buffer with their offsets (the
    /// analyser applies its own size cap, so the scanner's is out of reach).
    private var scanner = AnnexBStreamScanner(maximumNALUnitSize: Int.max >> 2)
    /// The NAL units one chunk completed, kept between chunks only for its capacity (empty then).
    private var scannedUnits: [(unit: ByteView, position: AnnexBNALUnitPosition)] = []
    private var summary: VideoStreamSummary
    private let reportsNALUnits: Bool
    /// The longest NAL unit read; a longer one is skipped and reported.
    public let maximumNALUnitSize: Int
    private var current: AccessUnit?
    /// The last frame, held until the next one starts: it may still gain a second field or the NAL
    /// units of an access unit without a picture.
    private var pendingFrame: FrameSummary?
    private var lastKeyIndex: Int?
    private var orderEpoch = 0
    private var orphanNALTypes: [Int] = []
    private var lastFieldParity: Bool?
    private var lastFrameNumber: Int?
    private var reportedLeadingGarbage = false
    private var reportedProperties = false
    /// Whether an oversized NAL unit is being skipped (its rest is not reported again).
    private var skippingOversizedUnit = false

    /// Creates an analyser at the start of a stream.
    /// - Parameters:
    ///   - format: ``ElementaryStreamFormat/h264AnnexB`` or ``ElementaryStreamFormat/hevcAnnexB``.
    ///   - reportsNALUnits: whether to hand out a ``VideoStreamEvent/nalUnit(_:)`` for every NAL unit
    ///     (`inspect --nal`).
    ///   - maximumNALUnitSize: a cap that keeps hostile input (no start code for gigabytes) from
    ///     exhausting memory; a longer NAL unit is skipped with an issue.
    public init(format: ElementaryStreamFormat, reportsNALUnits: Bool = false,
                maximumNALUnitSize: Int = VideoStreamAnalyzer.defaultMaximumNALUnitSize) {
        switch format {
        case .hevcAnnexB:
            interpreter = HEVCNALUnitInterpreter()
            summary = VideoStreamSummary(codec: .hevc)
        default:
            interpreter = H264NALUnitInterpreter()
            summary = VideoStreamSummary(codec: .h264)
        }
        self.reportsNALUnits = reportsNALUnits
        self.maximumNALUnitSize = max(16, maximumNALUnitSize)
    }

    /// Reads the next bytes of the stream.
    /// - Parameters:
    ///   - chunk: bytes that follow those appended before; any length, cut anywhere.
    ///   - handle: receives the events these bytes completed, in stream order.
    public mutating func append(_ chunk: UnsafeRawBufferPointer, _ handle: (VideoStreamEvent) -> Void) {
        summary.byteCount += chunk.count
        var units = takeScannedUnits()
        scanner.append(chunk) { unit, position in units.append((unit, position)) }
        process(&units, handle)
    }

    /// Lets `fill` read the next bytes of the stream straight into the analyser's buffer (for example
    /// with `read(2)`: no intermediate chunk, no copy), then reads them.
    /// - Parameters:
    ///   - maximumByteCount: the room offered to `fill`, in bytes.
    ///   - fill: writes up to `buffer.count` bytes at the start of `buffer` and returns how many
    ///     (0 at the end of the stream).
    ///   - handle: receives the events these bytes completed, in stream order.
    /// - Returns: the number of bytes `fill` wrote.
    /// - Throws: what `fill` throws (then nothing was added).
    @discardableResult
    public mutating func append<Failure: Error>(
        readingUpTo maximumByteCount: Int,
        using fill: (_ buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int,
        _ handle: (VideoStreamEvent) -> Void
    ) throws(Failure) -> Int {
        var units = takeScannedUnits()
        let written = try scanner.append(readingUpTo: maximumByteCount, using: fill) { unit, position in
            units.append((unit, position))
        }
        summary.byteCount += written
        process(&units, handle)
        return written
    }

    /// Reads the next bytes of the stream.
    /// - Parameters:
    ///   - chunk: bytes that follow those appended before.
    ///   - handle: receives the events these bytes completed.
    public mutating func append(_ chunk: [UInt8], _ handle: (VideoStreamEvent) -> Void) {
        chunk.withUnsafeBytes { append($0, handle) }
    }

    /// Ends the stream: the last NAL unit and frame are handed out.
    /// - Parameter handle: receives the last events.
    /// - Returns: the summary of the whole stream.
    public mutating func finish(_ handle: (VideoStreamEvent) -> Void) -> VideoStreamSummary {
        var units = takeScannedUnits()
        scanner.finish { unit, position in units.append((unit, position)) }
        process(&units, handle)
        reportLeadingGarbage(handle)
        close(endOffset: summary.byteCount, handle)
        if let frame = pendingFrame { emit(frame, handle) }
        pendingFrame = nil
        if let last = lastKeyIndex { summary.addGOP(length: summary.frameCount - last) }
        lastKeyIndex = nil
        if summary.frameCount == 0 {
            report(StreamIssue(byteOffset: summary.byteCount, message: "the stream holds no coded picture that could be read"), handle)
        }
        summary.properties = interpreter.properties
        return summary
    }

    /// Analyses a whole stream held in memory, keeping every frame (and NAL unit when asked).
    /// - Parameters:
    ///   - bytes: the Annex B stream.
    ///   - format: ``ElementaryStreamFormat/h264AnnexB`` or ``ElementaryStreamFormat/hevcAnnexB``.
    ///   - listNALUnits: whether to keep a summary of every NAL unit (`inspect --nal`).
    /// - Returns: the report.
    public static func analyze(_ bytes: [UInt8], format: ElementaryStreamFormat, listNALUnits: Bool = false) -> VideoStreamReport {
        var analyzer = VideoStreamAnalyzer(format: format, reportsNALUnits: listNALUnits)
        var frames: [FrameSummary] = []
        var nalUnits: [NALUnitSummary] = []
        var issues: [StreamIssue] = []
        let collect = { (event: VideoStreamEvent) in
            switch event {
            case let .frame(frame): frames.append(frame)
            case let .nalUnit(unit): nalUnits.append(unit)
            case let .issue(issue): issues.append(issue)
            case .properties: break
            }
        }
        analyzer.append(bytes, collect)
        let summary = analyzer.finish(collect)
        var report = VideoStreamReport(codec: summary.codec)
        report.frames = frames
        report.nalUnits = nalUnits
        report.issues = issues
        report.nalUnitCount = summary.nalUnitCount
        report.byteCount = summary.byteCount
        report.profile = summary.properties?.profile
        report.level = summary.properties?.level
        report.width = summary.properties?.width
        report.height = summary.properties?.height
        report.frameRate = summary.properties?.frameRate
        return report
    }

    // MARK: - NAL units

    /// The reusable array for the units of one chunk, taken out of `self` so the scanner can fill it.
    private mutating func takeScannedUnits() -> [(unit: ByteView, position: AnnexBNALUnitPosition)] {
        var units: [(unit: ByteView, position: AnnexBNALUnitPosition)] = []
        swap(&units, &scannedUnits)
        return units
    }

    /// Reads the NAL units a chunk completed, then checks what the scanner holds against the size cap.
    private mutating func process(_ units: inout [(unit: ByteView, position: AnnexBNALUnitPosition)],
                                  _ handle: (VideoStreamEvent) -> Void) {
        let held = scanner.pendingUnitPosition
        if !units.isEmpty || held != nil {
            reportLeadingGarbage(handle)
            skippingOversizedUnit = false
        }
        for (unit, position) in units {
            if unit.count > maximumNALUnitSize {
                reportOversizedUnit(at: position.byteOffset, insideNALUnit: true, handle)
            } else {
                process(unit, at: position, handle)
            }
        }
        units.removeAll(keepingCapacity: true)  // the views go: the scanner may reuse its buffer
        swap(&units, &scannedUnits)
        // What the scanner holds: everything since it was made (or last dropped its bytes) until it sees
        // a start code, then the unit after the latest start code.
        let heldFrom = held?.byteOffset ?? summary.byteCount - scanner.pendingByteCount
        if summary.byteCount - heldFrom > maximumNALUnitSize {
            if !skippingOversizedUnit { reportOversizedUnit(at: heldFrom, insideNALUnit: held != nil, handle) }
            skippingOversizedUnit = true
            scanner.dropPendingBytes()
        }
    }

    /// Reports a NAL unit (or data before any start code) longer than the cap, which is skipped.
    private mutating func reportOversizedUnit(at offset: Int, insideNALUnit: Bool, _ handle: (VideoStreamEvent) -> Void) {
        let what = insideNALUnit ? "a NAL unit longer than" : "more than"
        report(StreamIssue(byteOffset: offset, unitIndex: insideNALUnit ? summary.nalUnitCount : nil,
                           message: "\(what) \(maximumNALUnitSize) bytes without a start code: skipped to the next start code"), handle)
    }

    private mutating func reportLeadingGarbage(_ handle: (VideoStreamEvent) -> Void) {
        guard !reportedLeadingGarbage else { return }
        reportedLeadingGarbage = true
        let garbage = scanner.discardedLeadingBytes
        if garbage > 0 {
            report(StreamIssue(byteOffset: 0, message: "\(garbage) bytes before the first start code are not part of any NAL unit"), handle)
        }
    }

    private mutating func report(_ issue: StreamIssue, _ handle: (VideoStreamEvent) -> Void) {
        summary.record(issue)
        handle(.issue(issue))
    }

    private mutating func process(_ nalUnit: ByteView, at position: AnnexBNALUnitPosition, _ handle: (VideoStreamEvent) -> Void) {
        let index = summary.nalUnitCount
        summary.nalUnitCount += 1
        var unit: InterpretedNALUnit
        do {
            unit = try interpreter.interpret(nalUnit)
        } catch {
            unit = interpreter.header(of: nalUnit)
            unit.startsAccessUnit = interpreter.fallbackStartsAccessUnit(nalUnit, header: unit)
            report(StreamIssue(byteOffset: position.byteOffset, unitIndex: index, message: "NAL unit #\(index) (\(unit.typeName)): \(error)"), handle)
        }
        if !reportedProperties, let properties = interpreter.properties {
            reportedProperties = true
            handle(.properties(properties))
        }
        if reportsNALUnits {
            handle(.nalUnit(NALUnitSummary(index: index, byteOffset: position.byteOffset, size: nalUnit.count,
                                           type: unit.type, typeName: unit.typeName, referenceIDC: unit.referenceIDC,
                                           temporalID: unit.temporalID, layerID: unit.layerID)))
        }
        if unit.startsAccessUnit || current == nil {
            close(endOffset: position.startCodeOffset, handle)
            current = AccessUnit(startOffset: position.startCodeOffset)
        }
        current?.nalTypes.append(unit.type)
        if let picture = unit.picture, current?.picture == nil { current?.picture = picture }
    }

    // MARK: - Frames

    /// Ends the access unit being collected: it becomes a frame, the second field of a frame, or (with
    /// no readable picture) its NAL types go to the neighbouring frame.
    private mutating func close(endOffset: Int, _ handle: (VideoStreamEvent) -> Void) {
        guard let unit = current else { return }
        current = nil
        guard let picture = unit.picture else {
            if pendingFrame == nil { orphanNALTypes += unit.nalTypes } else { pendingFrame?.nalTypes += unit.nalTypes }
            return
        }
        if let isTop = picture.isTopField, var last = pendingFrame, last.fieldCount == 1,
           let lastField = lastFieldParity, lastField != isTop, lastFrameNumber == picture.frameNumber, !(picture.isKey && last.isKey) {
            last.size = endOffset - last.byteOffset
            last.nalTypes += unit.nalTypes
            last.fieldCount = 2
            last.pictureOrderCount = min(last.pictureOrderCount, picture.pictureOrderCount)
            pendingFrame = last
            lastFieldParity = nil
            return
        }
        if let frame = pendingFrame { emit(frame, handle) }
        if picture.resetsOrder { orderEpoch += 1 }
        pendingFrame = FrameSummary(
            index: summary.frameCount, type: picture.type, isKey: picture.isKey, byteOffset: unit.startOffset,
            size: endOffset - unit.startOffset, nalTypes: orphanNALTypes.isEmpty ? unit.nalTypes : orphanNALTypes + unit.nalTypes,
            pictureOrderCount: picture.pictureOrderCount, orderEpoch: orderEpoch)
        orphanNALTypes = []
        lastFieldParity = picture.isTopField
        lastFrameNumber = picture.frameNumber
    }

    private mutating func emit(_ frame: FrameSummary, _ handle: (VideoStreamEvent) -> Void) {
        summary.count(frame, lastKeyIndex: &lastKeyIndex)
        handle(.frame(frame))
    }
}

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
    /// The size of the pieces given to the scanner (it copies what it holds back, so small is fast).
    private static let scannerPieceSize = 4096

    /// One access unit being collected.
    private struct AccessUnit {
        var startOffset: Int
        var nalTypes: [Int] = []
        var picture: InterpretedPicture?
    }

    private var interpreter: any NALUnitInterpreter
    private var scanner = AnnexBStreamScanner(maximumNALUnitSize: Int.max >> 2)
    private var locator = NALUnitLocator()
    /// The stream offset of the first byte the current scanner holds when it has seen no start code.
    private var scannerStart = 0
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
        var start = 0
        while start < chunk.count {
            let end = min(chunk.count, start + Self.scannerPieceSize)
            appendPiece(UnsafeRawBufferPointer(rebasing: chunk[start..<end]), handle)
            start = end
        }
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
        if let unit = scanner.finish() { process(unit, handle) }
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

    private mutating func appendPiece(_ piece: UnsafeRawBufferPointer, _ handle: (VideoStreamEvent) -> Void) {
        let pieceOffset = summary.byteCount
        summary.byteCount += piece.count
        for unit in scanner.append(piece) {
            locator.locateNext(in: piece, at: pieceOffset)
            process(unit, handle)
        }
        locator.locateNext(in: piece, at: pieceOffset)
        if locator.hasSeenStartCode {
            reportLeadingGarbage(handle)
            skippingOversizedUnit = false
        }
        // What the scanner holds: everything since it was made until it sees a start code, then the unit
        // after the latest start code.
        let heldFrom = locator.hasSeenStartCode
            ? locator.next?.header ?? locator.candidate?.header ?? locator.scanPosition
            : scannerStart
        if summary.byteCount - heldFrom > maximumNALUnitSize {
            skipOversizedUnit(startingAt: heldFrom, lastPiece: piece, handle)
        }
    }

    /// Drops what the scanner holds (a NAL unit or garbage longer than the cap) and goes on at the next
    /// start code.
    private mutating func skipOversizedUnit(startingAt offset: Int, lastPiece: UnsafeRawBufferPointer,
                                            _ handle: (VideoStreamEvent) -> Void) {
        if !skippingOversizedUnit {
            let what = locator.hasSeenStartCode ? "a NAL unit longer than" : "more than"
            report(StreamIssue(byteOffset: offset, unitIndex: locator.hasSeenStartCode ? summary.nalUnitCount : nil,
                               message: "\(what) \(maximumNALUnitSize) bytes without a start code: skipped to the next start code"), handle)
        }
        skippingOversizedUnit = true
        // Keep the last two bytes, which may begin a start code.
        let tail = UnsafeRawBufferPointer(rebasing: lastPiece[max(0, lastPiece.count - 2)...])
        scanner = AnnexBStreamScanner(maximumNALUnitSize: Int.max >> 2)
        _ = scanner.append(tail)
        var zeros = 0
        for byte in tail.reversed() { if byte == 0 { zeros += 1 } else { break } }
        locator.restart(at: summary.byteCount, trailingZeros: zeros)
        scannerStart = summary.byteCount - tail.count
    }

    private mutating func reportLeadingGarbage(_ handle: (VideoStreamEvent) -> Void) {
        guard !reportedLeadingGarbage else { return }
        reportedLeadingGarbage = true
        let garbage = locator.leadingGarbageCount
        if garbage > 0 {
            report(StreamIssue(byteOffset: 0, message: "\(garbage) bytes before the first start code are not part of any NAL unit"), handle)
        }
    }

    private mutating func report(_ issue: StreamIssue, _ handle: (VideoStreamEvent) -> Void) {
        summary.record(issue)
        handle(.issue(issue))
    }

    private mutating func process(_ bytes: [UInt8], _ handle: (VideoStreamEvent) -> Void) {
        reportLeadingGarbage(handle)
        let position = locator.next ?? NALUnitLocator.Position(header: locator.scanPosition, startCode: locator.scanPosition)
        locator.consume(size: bytes.count)
        let nalUnit = bytes[...]
        let index = summary.nalUnitCount
        summary.nalUnitCount += 1
        var unit: InterpretedNALUnit
        do {
            unit = try interpreter.interpret(nalUnit)
        } catch {
            unit = interpreter.header(of: nalUnit)
            unit.startsAccessUnit = interpreter.fallbackStartsAccessUnit(nalUnit, header: unit)
            report(StreamIssue(byteOffset: position.header, unitIndex: index, message: "NAL unit #\(index) (\(unit.typeName)): \(error)"), handle)
        }
        if !reportedProperties, let properties = interpreter.properties {
            reportedProperties = true
            handle(.properties(properties))
        }
        if reportsNALUnits {
            handle(.nalUnit(NALUnitSummary(index: index, byteOffset: position.header, size: nalUnit.count,
                                           type: unit.type, typeName: unit.typeName, referenceIDC: unit.referenceIDC,
                                           temporalID: unit.temporalID, layerID: unit.layerID)))
        }
        if unit.startsAccessUnit || current == nil {
            close(endOffset: position.startCode, handle)
            current = AccessUnit(startOffset: position.startCode)
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
            size: endOffset - unit.startOffset, nalTypes: orphanNALTypes + unit.nalTypes,
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

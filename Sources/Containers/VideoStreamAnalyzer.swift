import Bitstream
import MediaCore

/// Reads an H.264 or H.265 Annex B stream for `inspect`: every NAL unit, grouped into access units
/// (frames) in decode order, with picture types, key frames, picture order and sizes.
///
/// The analyser never stops at bad data: a NAL unit that cannot be read becomes a ``StreamIssue``
/// naming its byte offset, its index and the field at fault, and the scan goes on. A frame whose slices
/// could not be read is not counted (the issue says so).
public struct VideoStreamAnalyzer {
    /// One access unit being collected.
    private struct AccessUnit {
        var startOffset: Int
        var nalTypes: [Int] = []
        var picture: InterpretedPicture?
    }

    private var interpreter: any NALUnitInterpreter
    private var report: VideoStreamReport
    private let listsNALUnits: Bool
    private var current: AccessUnit?
    private var orderEpoch = 0
    private var orphanNALTypes: [Int] = []

    /// Analyses a whole stream.
    /// - Parameters:
    ///   - bytes: the Annex B stream.
    ///   - format: ``ElementaryStreamFormat/h264AnnexB`` or ``ElementaryStreamFormat/hevcAnnexB``.
    ///   - listNALUnits: whether to keep a summary of every NAL unit (`inspect --nal`).
    /// - Returns: the report.
    public static func analyze(_ bytes: [UInt8], format: ElementaryStreamFormat, listNALUnits: Bool = false) -> VideoStreamReport {
        var analyzer = VideoStreamAnalyzer(format: format, listNALUnits: listNALUnits)
        analyzer.report.byteCount = bytes.count
        bytes.withUnsafeBytes { buffer in
            var previousEnd = 0
            AnnexB.forEachNALUnit(in: buffer) { range in
                var boundary = range.lowerBound - 3
                if boundary > previousEnd && buffer[boundary - 1] == 0 { boundary -= 1 }
                analyzer.process(bytes[range], startCodeOffset: boundary)
                previousEnd = range.upperBound
            }
        }
        let garbage = AnnexB.leadingGarbageCount(in: bytes)
        if garbage > 0 {
            analyzer.report.issues.insert(StreamIssue(byteOffset: 0, message: "\(garbage) bytes before the first start code are not part of any NAL unit"), at: 0)
        }
        return analyzer.finish(endOffset: bytes.count)
    }

    private init(format: ElementaryStreamFormat, listNALUnits: Bool) {
        switch format {
        case .hevcAnnexB:
            interpreter = HEVCNALUnitInterpreter()
            report = VideoStreamReport(codec: .hevc)
        default:
            interpreter = H264NALUnitInterpreter()
            report = VideoStreamReport(codec: .h264)
        }
        listsNALUnits = listNALUnits
    }

    private mutating func process(_ nalUnit: ArraySlice<UInt8>, startCodeOffset: Int) {
        let index = report.nalUnitCount
        report.nalUnitCount += 1
        var unit: InterpretedNALUnit
        do {
            unit = try interpreter.interpret(nalUnit)
        } catch {
            unit = interpreter.header(of: nalUnit)
            unit.startsAccessUnit = interpreter.fallbackStartsAccessUnit(nalUnit, header: unit)
            report.issues.append(StreamIssue(byteOffset: nalUnit.startIndex, unitIndex: index,
                                             message: "NAL unit #\(index) (\(unit.typeName)): \(error)"))
        }
        if listsNALUnits {
            report.nalUnits.append(NALUnitSummary(index: index, byteOffset: nalUnit.startIndex, size: nalUnit.count,
                                                  type: unit.type, typeName: unit.typeName, referenceIDC: unit.referenceIDC,
                                                  temporalID: unit.temporalID, layerID: unit.layerID))
        }
        if unit.startsAccessUnit || current == nil {
            close(endOffset: startCodeOffset)
            current = AccessUnit(startOffset: startCodeOffset)
        }
        current?.nalTypes.append(unit.type)
        if let picture = unit.picture, current?.picture == nil { current?.picture = picture }
    }

    /// Ends the access unit being collected: it becomes a frame, the second field of a frame, or (with
    /// no readable picture) its NAL types go to the neighbouring frame.
    private mutating func close(endOffset: Int) {
        guard let unit = current else { return }
        current = nil
        guard let picture = unit.picture else {
            if report.frames.isEmpty { orphanNALTypes += unit.nalTypes } else { report.frames[report.frames.count - 1].nalTypes += unit.nalTypes }
            return
        }
        if let isTop = picture.isTopField, var last = report.frames.last, last.fieldCount == 1,
           let lastField = lastFieldParity, lastField != isTop, lastFrameNumber == picture.frameNumber, !(picture.isKey && last.isKey) {
            last.size = endOffset - last.byteOffset
            last.nalTypes += unit.nalTypes
            last.fieldCount = 2
            last.pictureOrderCount = min(last.pictureOrderCount, picture.pictureOrderCount)
            report.frames[report.frames.count - 1] = last
            lastFieldParity = nil
            return
        }
        if picture.resetsOrder { orderEpoch += 1 }
        report.frames.append(FrameSummary(
            index: report.frames.count, type: picture.type, isKey: picture.isKey, byteOffset: unit.startOffset,
            size: endOffset - unit.startOffset, nalTypes: orphanNALTypes + unit.nalTypes,
            pictureOrderCount: picture.pictureOrderCount, orderEpoch: orderEpoch))
        orphanNALTypes = []
        lastFieldParity = picture.isTopField
        lastFrameNumber = picture.frameNumber
    }

    private var lastFieldParity: Bool?
    private var lastFrameNumber: Int?

    private mutating func finish(endOffset: Int) -> VideoStreamReport {
        close(endOffset: endOffset)
        if report.frames.isEmpty {
            report.issues.append(StreamIssue(byteOffset: endOffset, message: "the stream holds no coded picture that could be read"))
        }
        if let properties = interpreter.properties {
            report.profile = properties.profile
            report.level = properties.level
            report.width = properties.width
            report.height = properties.height
            report.frameRate = properties.frameRate
        }
        return report
    }
}

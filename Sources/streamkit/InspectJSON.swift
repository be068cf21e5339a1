import Containers
import MediaCore

/// The `inspect --json` object (one per run), with keys in the documented order, written as the
/// stream is read: the video header once the first frame is known, then one object per frame, then
/// the counts and errors.
struct InspectJSON {
    private var properties: VideoStreamProperties?
    private var wroteHeader = false
    private var frameCount = 0

    /// Takes an event of the analysis and writes what it adds.
    /// - Parameters:
    ///   - event: the event.
    ///   - output: where the JSON goes.
    mutating func take(_ event: VideoStreamEvent, to output: inout StandardOutput) {
        switch event {
        case let .properties(found): properties = found
        case let .frame(frame):
            writeHeader(to: &output)
            // Written in pieces of at most 15 bytes (Swift's inline strings): nothing is allocated per frame.
            output.write(frameCount == 0 ? "{\"index\":" : ",{\"index\":")
            output.write(String(frame.index))
            output.write(",\"type\":\"")
            output.write(frame.type.rawValue)
            output.write(frame.isKey ? "\",\"key\":true" : "\",\"key\":false")
            output.write(",\"size\":")
            output.write(String(frame.size))
            output.write(",\"nal_types\":[")
            for (position, type) in frame.nalTypes.enumerated() {
                if position > 0 { output.write(",") }
                output.write(String(type))
            }
            output.write("]}")
            frameCount += 1
        case .nalUnit, .issue: break
        }
    }

    /// Ends the object of a video stream.
    /// - Parameters:
    ///   - summary: the summary of the stream.
    ///   - output: where the JSON goes.
    ///   - listNALUnits: when `--nal` was given, writes `nal_unit_list` by calling its argument with a
    ///     function that writes one NAL unit (a second pass over the file).
    mutating func finish(_ summary: VideoStreamSummary, to output: inout StandardOutput,
                         listNALUnits: ((_ write: (NALUnitSummary) -> Void) -> Void)?) {
        if properties == nil { properties = summary.properties }
        codec = summary.codec
        writeHeader(to: &output)
        output.write("],\"nal_units\":\(summary.nalUnitCount)")
        if let listNALUnits {
            output.write(",\"nal_unit_list\":[")
            var first = true
            listNALUnits { unit in
                var fields: [(String, JSONValue)] = [
                    ("index", .integer(unit.index)), ("offset", .integer(unit.byteOffset)),
                    ("size", .integer(unit.size)), ("type", .integer(unit.type)), ("name", .string(unit.typeName)),
                ]
                if let idc = unit.referenceIDC { fields.append(("ref_idc", .integer(idc))) }
                if let tid = unit.temporalID { fields.append(("temporal_id", .integer(tid))) }
                output.write((first ? "" : ",") + JSONValue.object(fields).text)
                first = false
            }
            output.write("]")
        }
        output.write(Self.errors(summary.issues, total: summary.issueCount) + "}\n")
    }

    private var codec = CodecType.h264

    private mutating func writeHeader(to output: inout StandardOutput) {
        guard !wroteHeader else { return }
        wroteHeader = true
        let members: [(String, JSONValue)] = [
            ("codec", .string((properties?.codec ?? codec) == .hevc ? "hevc" : "h264")),
            ("profile", properties?.profile.map(JSONValue.string) ?? .null),
            ("level", properties?.level.map(JSONValue.string) ?? .null),
            ("width", properties.map { .integer($0.width) } ?? .null),
            ("height", properties.map { .integer($0.height) } ?? .null),
            ("frame_rate", properties?.frameRate.map(JSONValue.number) ?? .null),
        ]
        var text = JSONValue.object(members).text
        text.removeLast()  // the closing brace: the object goes on
        output.write(text + ",\"frames\":[")
    }

    /// The object of an ADTS stream.
    /// - Parameter audio: the report.
    /// - Returns: the JSON text, with a newline.
    static func text(for audio: AudioStreamReport) -> String {
        var text = JSONValue.object([
            ("codec", .string("aac")),
            ("profile", audio.profile.map(JSONValue.string) ?? .null),
            ("sample_rate", audio.sampleRate.map(JSONValue.integer) ?? .null),
            ("channels", audio.channelCount.map(JSONValue.integer) ?? .null),
            ("frames", .integer(audio.frameCount)),
            ("truncated_frames", .integer(audio.truncation == nil ? 0 : 1)),
            ("crc_protected_frames", .integer(audio.crcProtectedFrameCount)),
            ("crc_checked_frames", .integer(audio.crcCheckedFrameCount)),
            ("crc_mismatches", .integer(audio.crcMismatchCount)),
        ]).text
        text.removeLast()
        return text + errors(audio.issues, total: audio.issueCount) + "}\n"
    }

    /// `,"errors":[…]` when there are any, the last entry saying how many were left out.
    private static func errors(_ issues: [StreamIssue], total: Int) -> String {
        guard total > 0 else { return "" }
        var entries = issues.map { JSONValue.string($0.description) }
        if total > issues.count { entries.append(.string("… and \(total - issues.count) more errors")) }
        return ",\"errors\":" + JSONValue.array(entries).text
    }
}

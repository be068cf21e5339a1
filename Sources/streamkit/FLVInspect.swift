import Containers
import Foundation
import MediaCore

/// `streamkit inspect FILE.flv`: the container (tags of each kind, codecs, key frames, duration, `onMetaData`),
/// then the stream analysis of `inspect` run on the video (Annex B) and the audio (ADTS) read out of the tags.
enum FLVInspect {
    /// What one pass over the tags found.
    private struct Census {
        var videoTags = 0, audioTags = 0, scriptTags = 0, keyFrames = 0, pictures = 0
        var videoCodec: FLVVideoCodec?
        var audioFormat: UInt8?
        var lastTimestamp: UInt32 = 0
        var metadata: AMF0Object?
        var truncated: (offset: Int, field: String)?
    }

    /// Prints the report.
    /// - Parameters:
    ///   - path: the file.
    ///   - printsJSON: one JSON object instead of text.
    /// - Returns: the exit status: 0 when the file and its streams were read without error.
    static func run(path: String, printsJSON: Bool) -> Int32 {
        let census: Census
        do { census = try count(path) } catch {
            if printsJSON { print(JSONValue.object([("error", .string("\(error)"))]).text) }
            printError("streamkit inspect: \(path): \(error)")
            return 1
        }
        let seconds = Double(census.lastTimestamp) / 1000
        if printsJSON {
            var fields: [(String, JSONValue)] = [("format", .string("flv")), ("videoTags", .integer(census.videoTags)),
                                                 ("audioTags", .integer(census.audioTags)), ("pictures", .integer(census.pictures)),
                                                 ("keyFrames", .integer(census.keyFrames)), ("duration", .number(seconds)),
                                                 ("truncated", .bool(census.truncated != nil))]
            if let codec = census.videoCodec { fields.append(("videoCodec", .string(codec.description))) }
            if let metadata = census.metadata { fields.append(("metadata", json(.ecmaArray(metadata)))) }
            print(JSONValue.object(fields).text)
            return 0
        }
        var lines = ["\(path): FLV\(census.truncated.map { ", truncated at byte \($0.offset) in \($0.field)" } ?? "")",
                     String(format: "  duration     %.3f s (last timestamp)", seconds)]
        if let codec = census.videoCodec {
            lines.append("  video        \(codec): \(census.videoTags) tags, \(census.pictures) pictures, \(census.keyFrames) key frames")
        }
        if let format = census.audioFormat {
            lines.append("  audio        \(format == FLVAudioTagBody.aacSoundFormat ? "AAC" : "SoundFormat \(format)"): \(census.audioTags) tags")
        }
        if let metadata = census.metadata {
            lines.append("  onMetaData   " + metadata.properties.map { "\($0.key)=\(text($0.value))" }.joined(separator: ", "))
        }
        print(lines.joined(separator: "\n"))
        var status: Int32 = 0
        for stream in [FLVElementaryStreamSource<FileByteSource>.Stream.video, .audio] {
            guard stream == .video ? census.videoCodec?.codecType != nil : census.audioFormat == FLVAudioTagBody.aacSoundFormat else { continue }
            do {
                var source = FLVElementaryStreamSource(reader: try FLVReader(source: try FileByteSource(path: path)), stream: stream)
                let summary = try StreamInspector.inspect(&source) { _ in }
                print("")
                print(InspectText.render(summary, path: "\(path) \(stream == .video ? "video" : "audio")"), terminator: "")
                for issue in summary.issues { printError("error: \(issue)") }
                if summary.issueCount > 0 { status = 1 }
            } catch {
                printError("error: \(stream == .video ? "video" : "audio"): \(error)")
                status = 1
            }
        }
        return status
    }

    private static func count(_ path: String) throws -> Census {
        var reader = try FLVReader(source: try FileByteSource(path: path))
        var census = Census()
        while true {
            switch try reader.next() {
            case let .tag(tag, offset):
                census.lastTimestamp = max(census.lastTimestamp, tag.timestamp)
                do throws(FLVError) {
                    switch tag.type {
                    case .video:
                        census.videoTags += 1
                        let body = try tag.videoBody()
                        census.videoCodec = census.videoCodec ?? body.codec
                        if body.isCodedFrames {
                            census.pictures += 1
                            if body.frameType == .keyFrame { census.keyFrames += 1 }
                        }
                    case .audio:
                        census.audioTags += 1
                        let format = try tag.audioBody().soundFormat
                        census.audioFormat = census.audioFormat ?? format
                    case .scriptData:
                        census.scriptTags += 1
                        if census.metadata == nil { census.metadata = try tag.scriptData().metadata }
                    default: break
                    }
                } catch {
                    throw error.offset(by: offset + FLVTag.headerByteCount)
                }
            case .end: return census
            case let .truncated(offset, field):
                census.truncated = (offset, field)
                return census
            }
        }
    }

    private static func text(_ value: AMF0Value) -> String {
        switch value {
        case let .number(number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case let .boolean(flag): return String(flag)
        case let .string(string), let .longString(string): return string
        default: return "\(value)"
        }
    }

    private static func json(_ value: AMF0Value) -> JSONValue {
        switch value {
        case let .number(number): return .number(number)
        case let .boolean(flag): return .bool(flag)
        case let .string(string), let .longString(string), let .xmlDocument(string): return .string(string)
        case let .object(object), let .ecmaArray(object), let .typedObject(_, object):
            return .object(object.properties.map { ($0.key, json($0.value)) })
        case let .strictArray(values): return .array(values.map(json))
        case let .date(milliseconds, _): return .number(milliseconds)
        case .null, .undefined, .unsupported: return .null
        }
    }
}

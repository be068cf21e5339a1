import Containers
import Foundation
import MediaCore

/// `streamkit inspect FILE.mp4`: the container (brand, fragments, duration, bit rate), every track (codec,
/// size or sample rate, samples, key frames, duration, bit rate), then the stream analysis of `inspect` run on
/// the first video track's and the first audio track's samples.
enum MP4Inspect {
    /// Prints the report.
    /// - Parameters:
    ///   - path: the file.
    ///   - printsJSON: one JSON object instead of text.
    /// - Returns: the exit status: 0 when the file and its streams were read without error.
    static func run(path: String, printsJSON: Bool) -> Int32 {
        let file: MP4File
        do { file = try MP4File(contentsOf: path) } catch {
            if printsJSON { print(JSONValue.object([("error", .string(error.description))]).text) }
            printError("streamkit inspect: \(error)")
            return 1
        }
        var status: Int32 = 0
        let seconds = file.duration.seconds
        let totalBytes = file.tracks.reduce(0) { $0 + $1.totalSampleBytes }
        if printsJSON {
            let tracks = file.tracks.map { track in
                JSONValue.object([("id", .number(Double(track.id))), ("kind", .string(kindName(track.kind))),
                                  ("codec", .string(codecName(track))), ("sampleEntry", .string(track.sampleEntryType)),
                                  ("samples", .number(Double(track.sampleCount))), ("keyFrames", .number(Double(track.keyFrameCount))),
                                  ("duration", .number(track.mediaDuration.seconds)), ("bitRate", .number(track.averageBitRate.rounded()))])
            }
            print(JSONValue.object([("format", .string(file.majorBrand ?? "")), ("fragmented", .bool(file.isFragmented)),
                                    ("duration", .number(seconds)), ("tracks", .array(tracks))]).text)
            return 0
        }
        var lines = ["\(path): MP4 (\(file.majorBrand ?? "no ftyp")\(file.isFragmented ? ", fragmented, \(file.fragmentCount) fragments" : ""))"
                     + (file.isTruncated ? ", truncated" : "")]
        lines.append(String(format: "  duration     %.3f s, %d tracks, bit rate %.0f kbit/s", seconds, file.tracks.count,
                            seconds > 0 ? Double(totalBytes) * 8 / seconds / 1000 : 0))
        for track in file.tracks {
            var line = "  track \(track.id)      \(kindName(track.kind)) \(codecName(track)) (\(track.sampleEntryType))"
            switch track.format {
            case let .video(format): line += ", \(format.width)x\(format.height), \(format.profileLevel.profileName)"
            case let .audio(format): line += ", \(format.sampleRate) Hz, \(format.channelCount) channels, \(format.profile)"
            case .unsupported: break
            }
            lines.append(line)
            lines.append(String(format: "               %d samples, %d key frames, %.3f s, %.0f kbit/s", track.sampleCount,
                                track.keyFrameCount, track.mediaDuration.seconds, track.averageBitRate / 1000))
        }
        print(lines.joined(separator: "\n"))
        for audio in [false, true] {
            guard let track = MP4Input.track(of: file, audio: audio) else { continue }
            do {
                var source = try MP4ElementaryStreamSource(file: file, track: track)
                let summary = try StreamInspector.inspect(&source) { _ in }
                print("")
                print(InspectText.render(summary, path: "\(path) track \(track.id)"), terminator: "")
                for issue in summary.issues { printError("error: \(issue)") }
                if summary.issueCount > 0 { status = 1 }
            } catch {
                printError("error: track \(track.id): \(error)")
                status = 1
            }
        }
        return status
    }

    private static func kindName(_ kind: MP4TrackKind) -> String {
        switch kind {
        case .video: return "video"
        case .audio: return "audio"
        case let .other(handler): return handler
        }
    }

    private static func codecName(_ track: MP4Track) -> String {
        switch track.codec {
        case .h264: return "H.264/AVC"
        case .hevc: return "H.265/HEVC"
        case .aac: return "AAC"
        case .opus: return "Opus"
        case nil: return "unsupported"
        }
    }
}

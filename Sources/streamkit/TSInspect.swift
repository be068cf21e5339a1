import Containers
import Foundation
import MediaCore

/// `streamkit inspect FILE.ts`: the transport stream (packets, programs and their streams, pictures, key frames,
/// audio frames, duration, every accident the demuxer reported), then the stream analysis of `inspect` run on the
/// video (Annex B) and the audio (ADTS) read out of the PES packets.
enum TSInspect {
    /// What one pass over the file found.
    private struct Census {
        var packets = 0, pictures = 0, keyFrames = 0, audioFrames = 0
        var maps: [TSProgramMap] = []
        var issues: [TSStreamIssue] = []
        var firstTime: Int64?, lastTime: Int64?
    }

    /// Prints the report.
    /// - Parameters:
    ///   - path: the file.
    ///   - printsJSON: one JSON object instead of text.
    /// - Returns: the exit status: 0 when the file and its streams were read without an issue.
    static func run(path: String, printsJSON: Bool) -> Int32 {
        let census: Census
        do { census = try count(path) } catch {
            if printsJSON { print(JSONValue.object([("error", .string("\(error)"))]).text) }
            printError("streamkit inspect: \(path): \(error)")
            return 1
        }
        let seconds = Double((census.lastTime ?? 0) - (census.firstTime ?? 0)) / 90_000
        let streams = census.maps.last.map { map in map.streams.map { "0x\(String($0.pid, radix: 16)) \($0.streamType)" } } ?? []
        if printsJSON {
            print(JSONValue.object([("format", .string("mpegts")), ("packets", .integer(census.packets)),
                                    ("streams", .array(streams.map { .string($0) })), ("pictures", .integer(census.pictures)),
                                    ("keyFrames", .integer(census.keyFrames)), ("audioFrames", .integer(census.audioFrames)),
                                    ("duration", .number(seconds)), ("issues", .array(census.issues.map { .string("\($0)") }))]).text)
            return census.issues.isEmpty ? 0 : 1
        }
        var lines = ["\(path): MPEG-TS, \(census.packets) packets",
                     String(format: "  duration     %.3f s (first to last decode time)", seconds),
                     "  streams      " + (streams.isEmpty ? "none" : streams.joined(separator: ", ")),
                     "  video        \(census.pictures) pictures, \(census.keyFrames) key frames",
                     "  audio        \(census.audioFrames) AAC frames"]
        if census.maps.count > 1 { lines.append("  programs     the program map changed \(census.maps.count - 1) times") }
        print(lines.joined(separator: "\n"))
        var status: Int32 = census.issues.isEmpty ? 0 : 1
        for issue in census.issues { printError("error: \(issue)") }
        for stream in [TSElementaryStreamSource<FileByteSource>.Stream.video, .audio] {
            guard stream == .video ? census.pictures > 0 : census.audioFrames > 0 else { continue }
            do {
                var source = TSElementaryStreamSource(source: try FileByteSource(path: path), stream: stream)
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
        let source = try FileByteSource(path: path)
        defer { try? source.close() }
        var reader = TSMediaReader()
        var census = Census()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in try source.read(into: buffer) }
            let events = count == 0 ? reader.finish() : reader.append(chunk[..<count])
            for event in events {
                switch event {
                case let .programMap(map): census.maps.append(map)
                case let .video(frame, _):
                    census.pictures += 1
                    if frame.isKeyFrame { census.keyFrames += 1 }
                    census.firstTime = census.firstTime ?? frame.dts.value
                    census.lastTime = frame.dts.value
                case .audio: census.audioFrames += 1
                case let .issue(issue): census.issues.append(issue)
                }
            }
            if count == 0 { break }
        }
        census.packets = reader.demuxer.packetCount
        return census
    }
}

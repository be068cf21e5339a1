import Bitstream
import Containers
import Foundation
import MediaCore
import TestSupport

/// What the TS suites share: our demuxer's output gathered per stream, ffprobe's packets, ffmpeg's `-c copy`
/// elementary streams.
enum TSTestSupport {
    /// Everything our demuxer and reader give for a stream of bytes.
    struct Demuxed {
        var pes: [TSPESPacket] = []
        var maps: [TSProgramMap] = []
        var video: [EncodedFrame] = []
        var audio: [EncodedAudioFrame] = []
        var issues: [TSStreamIssue] = []

        /// The PES payloads of one kind of stream, concatenated (an Annex B or ADTS elementary stream).
        func elementaryStream(video isVideo: Bool) -> [UInt8] {
            pes.filter { $0.streamType.isVideo == isVideo }.reduce(into: []) { $0 += $1.payload }
        }
    }

    /// Demuxes bytes in chunks of the given size with both layers.
    static func demux(_ bytes: [UInt8], chunkSize: Int = 4096) -> Demuxed {
        var result = Demuxed()
        var demuxer = TSDemuxer()
        var reader = TSMediaReader()
        var start = 0
        func take(_ events: [TSDemuxer.Event]) {
            for event in events { if case let .pes(packet) = event { result.pes.append(packet) } }
        }
        func take(_ events: [TSMediaReader.Event]) {
            for event in events {
                switch event {
                case let .programMap(map): result.maps.append(map)
                case let .video(frame, _): result.video.append(frame)
                case let .audio(frame, _): result.audio.append(frame)
                case let .issue(issue): result.issues.append(issue)
                }
            }
        }
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            take(demuxer.append(bytes[start..<end]))
            take(reader.append(bytes[start..<end]))
            start = end
        }
        take(demuxer.finish())
        take(reader.finish())
        return result
    }

    /// ffprobe's packets of a file: codec type, pts, dts, size, flags.
    static func packets(of path: String) throws -> [[String: String]] {
        let text = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,pts,dts,size,flags",
                                                      "-of", "compact=p=0:nk=0", path]).text
        return text.split(separator: "\n").map { line in
            var fields: [String: String] = [:]
            for pair in line.split(separator: "|") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            return fields
        }
    }

    /// ffmpeg's own elementary stream of a file (`-c copy -f h264|hevc|adts`).
    static func ffmpegElementaryStream(of path: String, format: String, in directory: URL) throws -> [UInt8] {
        let output = directory.appendingPathComponent("es-\(UUID().uuidString).\(format)").path
        let map = format == "adts" ? "0:a:0" : "0:v:0"
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", path, "-map", map, "-c", "copy", "-f", format, output])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// The NAL units of an Annex B stream, access unit delimiters left out.
    static func nalUnits(ofAnnexB bytes: [UInt8], hevc: Bool) -> [[UInt8]] {
        AnnexB.nalUnitRanges(in: bytes).compactMap { range in
            guard let first = bytes[range].first else { return nil }
            let type = hevc ? first >> 1 & 0x3F : first & 0x1F
            return type == (hevc ? 35 : 9) ? nil : Array(bytes[range])
        }
    }

    /// The NAL units of AVCC frames as a TS carries them: the parameter sets before each key frame that lacks
    /// them, then the frame's units.
    static func nalUnits(of frames: [EncodedFrame]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        for frame in frames {
            let hevc = frame.codec == .hevc
            let own = frame.nalUnitRanges.map { Array(frame.data[$0]) }
            if frame.isKeyFrame, !own.contains(where: { !$0.isEmpty && ($0[0] & (hevc ? 0x7E : 0x1F)) == (hevc ? 66 : 7) }) {
                units += frame.format.parameterSets
            }
            units += own.filter { unit in
                guard let first = unit.first else { return false }
                return (hevc ? first >> 1 & 0x3F : first & 0x1F) != (hevc ? 35 : 9)
            }
        }
        return units
    }
}

import Foundation
import TestSupport

/// MP4 files written by ffmpeg (libx264, libx265, its AAC encoder) from lavfi sources: the reader's oracles.
enum MP4TestFiles {
    /// One way of writing an MP4 with ffmpeg.
    struct Variant: CustomStringConvertible, Sendable {
        var name: String
        var fileExtension = "mp4"
        var arguments: [String]
        var description: String { name }
    }

    static let video = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"]
    static let audio = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"]
    static let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "12", "-pix_fmt", "yuv420p"]
    static let x265 = ["-c:v", "libx265", "-preset", "veryfast", "-x265-params", "log-level=error:keyint=12", "-pix_fmt", "yuv420p"]

    static let variants: [Variant] = [
        Variant(name: "classic", arguments: video + audio + x264 + ["-bf", "0", "-c:a", "aac"]),
        Variant(name: "faststart", arguments: video + audio + x264 + ["-c:a", "aac", "-movflags", "+faststart"]),
        Variant(name: "bframes", arguments: video + x264 + ["-bf", "3"]),
        Variant(name: "fragmented", arguments: video + audio + x264 + ["-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov"]),
        Variant(name: "hvc1", arguments: video + x265 + ["-tag:v", "hvc1"]),
        Variant(name: "hev1", arguments: video + x265 + ["-tag:v", "hev1"]),
        Variant(name: "m4a", fileExtension: "m4a", arguments: audio + ["-c:a", "aac"]),
        Variant(name: "mov", fileExtension: "mov", arguments: video + audio + x264 + ["-c:a", "aac"]),
    ]

    /// Writes a variant into `directory`.
    /// - Returns: the file's path.
    static func make(_ variant: Variant, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("\(variant.name).\(variant.fileExtension)").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y"] + variant.arguments + [path])
        return path
    }

    /// One packet as ffprobe's `-show_packets` reports it.
    struct Packet: Equatable, CustomStringConvertible {
        var pts: Int64?
        var dts: Int64?
        var duration: Int64
        var size: Int
        var position: Int
        var isKey: Bool
        var description: String { "pts \(pts.map(String.init) ?? "N/A") dts \(dts.map(String.init) ?? "N/A") dur \(duration) size \(size) pos \(position) key \(isKey)" }
    }

    /// The packets of one stream, in decode order.
    static func packets(_ path: String, stream: Int) throws -> [Packet] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "\(stream)", "-show_packets",
                                                        "-show_entries", "packet=pts,dts,duration,size,pos,flags",
                                                        "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any]
        return (json?["packets"] as? [[String: Any]] ?? []).map { packet in
            func number(_ key: String) -> Int64? {
                (packet[key] as? Int).map(Int64.init) ?? (packet[key] as? String).flatMap { Int64($0) }
            }
            return Packet(pts: number("pts"), dts: number("dts"), duration: number("duration") ?? 0,
                          size: Int(number("size") ?? -1), position: Int(number("pos") ?? -1),
                          isKey: (packet["flags"] as? String)?.first == "K")
        }
    }

    /// The NAL units of an Annex B stream (start codes of 3 or 4 bytes removed), for comparing two streams
    /// whatever start-code lengths they use.
    static func nalUnits(ofAnnexB bytes: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var start: Int?
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let begin = start {
                    var end = index
                    while end > begin, bytes[end - 1] == 0 { end -= 1 }
                    units.append(Array(bytes[begin..<end]))
                }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let begin = start { units.append(Array(bytes[begin...])) }
        return units
    }
}

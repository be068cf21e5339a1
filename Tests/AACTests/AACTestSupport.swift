import Foundation
import TestSupport

// AAC-specific helpers of the AACTests. Media paths, tools and MP4 boxes come from `TestSupport`.

/// The ADTS files of the shared media these tests use (paths for ``MediaFiles``).
enum Media {
    static let sample = "audio/exoplayer/sample.adts"
    static let sampleWithID3 = "audio/exoplayer/sample_with_id3.adts"
    static let sampleTruncated = "audio/exoplayer/sample_cbs_truncated.adts"
}

/// ffprobe and ffmpeg runs specific to AAC: probing an audio stream, encoding a tone.
enum Tools {
    /// `ffprobe -show_streams -count_packets` of the first audio stream, as key → value.
    static func probeAudio(_ url: URL) throws -> [String: String] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-count_packets", "-select_streams", "a:0",
                                                        "-show_entries", "stream=codec_name,profile,sample_rate,channels,nb_read_packets",
                                                        "-of", "default=noprint_wrappers=1", url.path])
        var fields: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    /// Encodes a sine tone with FFmpeg's native AAC encoder into an ADTS file.
    static func encodeSine(sampleRate: Int, channels: Int, seconds: Double, extra: [String] = [], into directory: URL,
                           name: String = "tone.aac") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate)",
                                          "-ac", "\(channels)", "-t", "\(seconds)", "-c:a", "aac"] + extra + ["-f", "adts", url.path])
        return url
    }
}

/// The payload of the `DecoderSpecificInfo` (tag 0x05) inside the first `esds` box of an MP4 file
/// (ISO/IEC 14496-1 §7.2.6: ES_Descriptor 0x03 → DecoderConfigDescriptor 0x04 → DecoderSpecificInfo 0x05).
func decoderSpecificInfo(inMP4 file: [UInt8]) -> [UInt8]? {
    guard let bytes = MP4Boxes.payloads(of: "esds", in: file).first else { return nil }
    let index = 4 // version + flags
    func descriptor(at offset: Int) -> (tag: UInt8, body: Int, size: Int)? {
        guard offset < bytes.count else { return nil }
        var size = 0
        var cursor = offset + 1
        for _ in 0..<4 {
            guard cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            size = size << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return (bytes[offset], cursor, size)
    }
    guard let es = descriptor(at: index), es.tag == 0x03, es.body + 3 <= bytes.count else { return nil }
    let flags = bytes[es.body + 2]
    var cursor = es.body + 3
    if flags & 0x80 != 0 { cursor += 2 }                                      // dependsOn_ES_ID
    if flags & 0x40 != 0, cursor < bytes.count { cursor += 1 + Int(bytes[cursor]) } // URL
    if flags & 0x20 != 0 { cursor += 2 }                                      // OCR_ES_Id
    guard let config = descriptor(at: cursor), config.tag == 0x04 else { return nil }
    guard let info = descriptor(at: config.body + 13), info.tag == 0x05, info.body + info.size <= bytes.count else { return nil }
    return Array(bytes[info.body..<(info.body + info.size)])
}

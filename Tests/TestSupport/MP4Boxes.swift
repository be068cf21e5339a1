/// Finds boxes in an ISO BMFF (MP4) file written by ffmpeg, so tests can compare what we build
/// (avcC, hvcC, AVCC samples) with what ffmpeg wrote. A test oracle helper, not a demuxer.
public enum MP4Boxes {
    /// Container boxes whose children are walked.
    private static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta", "mvex", "moof", "traf"]

    /// The payload (after the 8-byte header) of every box of type `type`, depth first.
    /// - Parameters:
    ///   - type: a four-character code such as `mdat` or `avcC`.
    ///   - bytes: the MP4 file.
    /// - Returns: each matching box's payload.
    public static func payloads(of type: String, in bytes: [UInt8]) -> [[UInt8]] {
        var found: [[UInt8]] = []
        walk(bytes, 0..<bytes.count, type: type, into: &found)
        return found
    }

    private static func walk(_ bytes: [UInt8], _ range: Range<Int>, type: String, into found: inout [[UInt8]]) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let name = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard size >= 8, offset + size <= range.upperBound else { return }
            let payload = (offset + 8)..<(offset + size)
            if name == type { found.append(Array(bytes[payload])) }
            if containers.contains(name) {
                walk(bytes, payload, type: type, into: &found)
            } else if name == "stsd" {
                // stsd: version/flags + entry count, then sample entries.
                walk(bytes, (payload.lowerBound + 8)..<payload.upperBound, type: type, into: &found)
            } else if ["avc1", "hvc1", "hev1", "mp4a"].contains(name) {
                // Visual sample entry: 78 bytes of fields; audio: 28 bytes; then child boxes.
                let skip = name == "mp4a" ? 28 : 78
                if payload.count > skip { walk(bytes, (payload.lowerBound + skip)..<payload.upperBound, type: type, into: &found) }
            }
            offset += size
        }
    }
}

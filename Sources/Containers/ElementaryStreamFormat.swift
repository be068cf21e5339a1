import AAC
import Bitstream

/// The kinds of elementary stream `inspect` reads, told apart by their bytes, never by the file name.
public enum ElementaryStreamFormat: String, Sendable, Hashable {
    /// H.264 in the Annex B byte-stream format.
    case h264AnnexB = "h264"
    /// H.265 in the Annex B byte-stream format.
    case hevcAnnexB = "hevc"
    /// AAC in ADTS frames (possibly after an ID3v2 tag).
    case adts = "aac"

    /// Looks at the start of a stream and says what it is.
    ///
    /// ADTS is recognised by a frame header (after any ID3v2 tag) followed by a second header exactly
    /// `aac_frame_length` later (or by a single frame that fills the data). Annex B is recognised by start
    /// codes; the NAL headers behind the first few decide between H.264 (one-byte header: SPS 7, PPS 8,
    /// slices 1/5, SEI 6, AUD 9) and H.265 (two-byte header with `nuh_temporal_id_plus1` > 0 and
    /// VPS/SPS/PPS/AUD/SEI/slice types), whichever explains more of them.
    /// - Parameter bytes: the stream, or at least its first few kilobytes.
    /// - Returns: the format, or `nil` if the bytes are none of the three.
    public static func detect(_ bytes: [UInt8]) -> ElementaryStreamFormat? {
        if looksLikeADTS(bytes) { return .adts }
        var h264Score = 0
        var hevcScore = 0
        var examined = 0
        bytes.withUnsafeBytes { buffer in
            AnnexB.forEachNALUnit(in: UnsafeRawBufferPointer(rebasing: buffer[0..<min(buffer.count, 1 << 20)])) { range in
                guard examined < 64 else { return }
                examined += 1
                let first = buffer[range.lowerBound]
                guard first & 0x80 == 0 else { return }
                let h264Type = first & 0x1F
                if [1, 5, 6, 7, 8, 9, 10, 11, 12].contains(h264Type) { h264Score += h264Type == 7 || h264Type == 8 ? 3 : 1 }
                if range.count >= 2 {
                    let hevcType = (first >> 1) & 0x3F
                    let layer = (first & 1) << 5 | buffer[range.lowerBound + 1] >> 3
                    let temporal = buffer[range.lowerBound + 1] & 7
                    if temporal > 0 && layer == 0 && ((0...9).contains(hevcType) || (16...21).contains(hevcType) || (32...40).contains(hevcType)) {
                        hevcScore += (32...34).contains(hevcType) ? 3 : 1
                    }
                }
            }
        }
        if h264Score == 0 && hevcScore == 0 { return nil }
        return hevcScore > h264Score ? .hevcAnnexB : .h264AnnexB
    }

    private static func looksLikeADTS(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        // Skip ID3v2 tags: "ID3", version, flags, then a 4-byte syncsafe size.
        while offset + 10 <= bytes.count, bytes[offset] == 0x49, bytes[offset + 1] == 0x44, bytes[offset + 2] == 0x33 {
            let size = bytes[(offset + 6)..<(offset + 10)].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            offset += 10 + size + (bytes[offset + 5] & 0x10 != 0 ? 10 : 0)
        }
        guard offset < bytes.count, let first = try? ADTSHeader.parse(bytes[offset...], byteOffset: offset) else { return false }
        let next = offset + Int(first.frameLength)
        if next == bytes.count { return true }
        guard next < bytes.count, let second = try? ADTSHeader.parse(bytes[next...], byteOffset: next) else { return false }
        return second.samplingFrequencyIndex == first.samplingFrequencyIndex
    }
}

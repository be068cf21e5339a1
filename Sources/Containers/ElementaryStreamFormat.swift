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

    /// ADTS when the first 64 KiB hold at least two frames, or one frame that fills the data, or one
    /// frame followed by a second one the data cuts short (its header, as far as it arrived, agreeing
    /// with the first), and nothing but ID3v2 tags comes before the first frame.
    private static func looksLikeADTS(_ bytes: [UInt8]) -> Bool {
        let prefix = Array(bytes.prefix(1 << 16))
        let result = ADTSFrameScanner.scan(prefix)
        guard let first = result.frames.first else { return false }
        let lostSyncBeforeFirst = result.skipped.contains { skipped in
            if case .lostSync = skipped.reason { return skipped.byteOffset < first.byteOffset }
            return false
        }
        guard !lostSyncBeforeFirst else { return false }
        if result.frames.count >= 2 || first.bytes.count == bytes.count { return true }
        guard result.frames.count == 1, let cut = result.truncation,
              cut.byteOffset == first.byteOffset + first.bytes.count, result.skipped.allSatisfy({ $0.byteOffset < first.byteOffset }) else {
            return false
        }
        if let header = cut.header {
            return header.mpegVersion == first.header.mpegVersion && header.audioObjectType == first.header.audioObjectType
                && header.samplingFrequencyIndex == first.header.samplingFrequencyIndex
                && header.channelConfiguration == first.header.channelConfiguration
        }
        // Less than a header arrived: it must at least begin with the syncword.
        let tail = prefix[cut.byteOffset...]
        return tail.count >= 2 && tail[tail.startIndex] == 0xFF && tail[tail.startIndex + 1] & 0xF0 == 0xF0
    }
}

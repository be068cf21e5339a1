/// The container of HLS media segments (RFC 8216 §3).
public enum HLSSegmentFormat: String, Sendable, Hashable, CaseIterable {
    /// Fragmented MP4 (§3.3, CMAF): an initialization section (`EXT-X-MAP`), `.m4s` segments, version 6.
    case fragmentedMP4 = "fmp4"
    /// MPEG-2 transport stream (§3.2): self-contained `.ts` segments that each start with PAT, PMT and a key
    /// frame, no `EXT-X-MAP`, version 3 — what older players and set-top boxes want.
    case mpegTS = "ts"
}

/// What a track carries, from its handler (`hdlr`, ISO/IEC 14496-12 §8.4.3).
public enum MP4TrackKind: Sendable, Hashable {
    /// `vide`.
    case video
    /// `soun`.
    case audio
    /// Any other handler (`text`, `subt`, `hint`, `meta` …), named by its four-character code.
    case other(String)
}

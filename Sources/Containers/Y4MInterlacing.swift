/// The `I` parameter of a YUV4MPEG2 stream header: how the frames were scanned.
public enum Y4MInterlacing: String, Sendable, Hashable, CaseIterable {
    /// `Ip`: progressive.
    case progressive = "p"
    /// `It`: interlaced, top field first.
    case topFieldFirst = "t"
    /// `Ib`: interlaced, bottom field first.
    case bottomFieldFirst = "b"
    /// `Im`: mixed; each `FRAME` header says.
    case mixed = "m"
    /// `I?`: unknown.
    case unknown = "?"
}

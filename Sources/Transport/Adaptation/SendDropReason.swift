/// Why a send queue dropped a message instead of sending it.
public enum SendDropReason: Sendable, Hashable, CustomStringConvertible {
    /// The link was slower than the stream and no later picture references this one (H.264 `nal_ref_idc`
    /// 0, an H.265 sub-layer non-reference picture), so it went first.
    case nonReferenceFrame
    /// The link was slower than the stream and only referenced pictures were left: the rest of the group of
    /// pictures went, up to the next key frame (a key frame is asked for at once).
    case restOfGroupOfPictures
    /// The connection dropped: pictures up to the next key frame cannot be sent to the new connection,
    /// which starts at a key frame with fresh sequence headers.
    case reconnecting
    /// The queue held no droppable picture and audio alone passed the hard bound.
    case audioOverflow

    /// The reason in words.
    public var description: String {
        switch self {
        case .nonReferenceFrame: return "the link was behind; a frame no other frame references was dropped"
        case .restOfGroupOfPictures: return "the link was behind; the rest of the group of pictures was dropped up to the next key frame"
        case .reconnecting: return "the connection was lost; the stream resumes at the next key frame"
        case .audioOverflow: return "the link was behind with no video left to drop; audio was dropped"
        }
    }
}

import MediaCore

/// What a compression session delivers, in order, through ``CompressionSession/outputs`` — the output
/// callback of `VTCompressionSessionEncodeFrame`, where a dropped frame is reported with
/// `kVTEncodeInfo_FrameDropped`, never silently.
public enum CompressionOutput: Sendable, Hashable {
    /// An encoded picture, in decode order.
    case frame(EncodedFrame)
    /// A picture that will not come out: which one (its index in input order and its pts) and why.
    case dropped(FramePosition, reason: DropReason)
}

/// Why a compression session dropped a picture.
public enum DropReason: Sendable, Hashable, CustomStringConvertible {
    /// ``OutputPolicy/drop``: the buffer was full and no other frame references this one (an H.264
    /// picture with `nal_ref_idc` 0, an H.265 sub-layer non-reference picture), so it went first.
    case nonReferenceFrame
    /// ``OutputPolicy/drop``: the buffer was full with frames others depend on, so the rest of the group
    /// of pictures was dropped up to the next key frame (the session asks the engine for one at once).
    case restOfGroupOfPictures
    /// The engine returned no frame for the picture (found when the session was flushed).
    case notProducedByEngine

    /// The reason in words.
    public var description: String {
        switch self {
        case .nonReferenceFrame: return "the consumer was behind; a frame no other frame references was dropped"
        case .restOfGroupOfPictures: return "the consumer was behind; the rest of the group of pictures was dropped up to the next key frame"
        case .notProducedByEngine: return "the engine returned no frame for it"
        }
    }
}

import MediaCore

/// Whether later frames may reference an encoded frame, read from its NAL unit headers.
enum FrameDependency {
    /// See `EncodedFrame.isReferenced` of MediaCore (ITU-T H.264 §7.4.1, ITU-T H.265 §7.4.2.2), the one
    /// implementation that the sessions' drop policy and the transports' send queues share.
    /// - Parameter frame: the frame, in AVCC form.
    /// - Returns: whether later frames may reference it.
    static func isReferenced(_ frame: EncodedFrame) -> Bool { frame.isReferenced }
}

/// The kind of a WebRTC media section a session sends on (the SDP `m=` media name).
public enum WebRTCMediaKind: String, Sendable, Hashable, CaseIterable {
    /// `m=video`: H.264.
    case video
    /// `m=audio`: Opus.
    case audio
}

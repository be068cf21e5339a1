/// A video tag's `FrameType` (FLV specification v10.1, E.4.3.1 `VIDEODATA`; the same 3 bits in an
/// Enhanced RTMP `ExVideoTagHeader`).
public enum FLVVideoFrameType: UInt8, Sendable, Hashable, CaseIterable {
    /// 1: a key frame (a seekable frame: IDR for H.264, IRAP for H.265).
    case keyFrame = 1
    /// 2: an inter frame.
    case interFrame = 2
    /// 3: a disposable inter frame (H.263 only).
    case disposableInterFrame = 3
    /// 4: a generated key frame (reserved for server use).
    case generatedKeyFrame = 4
    /// 5: a video info / command frame; its body is one command byte, not a picture.
    case command = 5
}

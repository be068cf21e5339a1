import MediaCore

/// One picture from a ``VideoSource`` — what `AVCaptureVideoDataOutput` hands its delegate:
/// the pixel buffer and its presentation time.
public struct CapturedFrame: Sendable, Hashable {
    /// The picture.
    public var pixelBuffer: PixelBuffer
    /// When the picture was captured, relative to the first frame of the source (frame 0 has pts 0 for
    /// the synthetic camera; a V4L2 camera counts from its first buffer's timestamp).
    public var pts: MediaTime
    /// How long the picture is shown: one frame period.
    public var duration: MediaTime

    /// Creates a frame.
    /// - Parameters:
    ///   - pixelBuffer: the picture.
    ///   - pts: its presentation time.
    ///   - duration: its display duration.
    public init(pixelBuffer: PixelBuffer, pts: MediaTime, duration: MediaTime) {
        self.pixelBuffer = pixelBuffer
        self.pts = pts
        self.duration = duration
    }
}

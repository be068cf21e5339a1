import MediaCore

/// A live source of pictures: a camera, real or synthetic — StreamKit's `AVCaptureSession` with a
/// video data output.
///
/// Sources are `Sendable` reference types: one task usually pulls frames with ``nextFrame()`` while
/// another may call ``stop()``. Pulling from two tasks at once is allowed but each frame goes to one of them.
///
/// The stream ends — ``nextFrame()`` returns `nil`, now and on every later call — when the source runs out
/// (a frame limit), after ``stop()``, or when the task awaiting ``nextFrame()`` is cancelled (cancellation
/// stops the source). Either way the call returns promptly, within a few tens of milliseconds.
public protocol VideoSource: AnyObject, Sendable {
    /// What the source is, for people: "synthetic camera 640x480@30", "V4L2 /dev/video0 (HD Webcam)".
    var name: String { get }
    /// The picture width in pixels.
    var width: Int { get }
    /// The picture height in pixels.
    var height: Int { get }
    /// The nominal frame rate in frames per second.
    var frameRate: Double { get }
    /// The layout of the delivered pixel buffers.
    var format: PixelFormat { get }
    /// Frames the source captured but could not deliver because the consumer was late (or the device
    /// reported them broken). Drops are counted, never silent.
    var droppedFrameCount: Int { get async }

    /// Waits for the next picture.
    /// - Returns: the frame, or `nil` once the stream has ended (limit reached, stopped, or cancelled).
    /// - Throws: ``CaptureError`` if the device fails.
    func nextFrame() async throws(CaptureError) -> CapturedFrame?

    /// Ends the stream and releases the device. A pending ``nextFrame()`` returns `nil` promptly.
    func stop() async
}

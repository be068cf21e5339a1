import MediaCore

/// A live source of PCM audio: a microphone, real or synthetic — StreamKit's `AVCaptureSession` with an
/// audio data output.
///
/// Sources are `Sendable` reference types: one task usually pulls buffers with ``nextBuffer()`` while
/// another may call ``stop()``. The stream ends — ``nextBuffer()`` returns `nil`, now and later — when the
/// source runs out, after ``stop()``, or when the task awaiting ``nextBuffer()`` is cancelled (cancellation
/// stops the source). Either way the call returns promptly.
public protocol AudioSource: AnyObject, Sendable {
    /// What the source is, for people: "synthetic microphone 440 Hz, 48000 Hz, 1 ch".
    var name: String { get }
    /// Samples per second per channel of the delivered buffers.
    var sampleRate: Int { get }
    /// Channels of the delivered buffers.
    var channelCount: Int { get }
    /// How many times the consumer fell so far behind that captured samples were lost (ALSA "overrun").
    var overrunCount: Int { get async }

    /// Waits for the next block of samples.
    /// - Returns: the block, or `nil` once the stream has ended.
    /// - Throws: ``CaptureError`` if the device fails.
    func nextBuffer() async throws(CaptureError) -> CapturedAudio?

    /// Ends the stream and releases the device. A pending ``nextBuffer()`` returns `nil` promptly.
    func stop() async
}

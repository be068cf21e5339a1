import MediaCore
import POSIX

/// A camera that needs no hardware: a moving test pattern (scrolling colour bars and grey ramp, a bouncing
/// box) with the frame number and the pts burnt in, NV12 by default like an iPhone camera.
///
/// **Pacing.** With `realTime: true` the camera behaves like real hardware: frame `n` is captured at
/// `start + n / fps`, where `start` is the first call to ``nextFrame()``, and ``nextFrame()`` waits for it.
/// A consumer that falls behind does not get a silent backlog: like a camera with one capture buffer it gets
/// the most recent frame, and every frame it missed is counted in ``droppedFrameCount`` (the pts then jump by
/// more than one frame). With `realTime: false` frames come as fast as they are pulled and none are dropped:
/// for files and tests.
///
/// **Concurrency.** An actor: any task may pull frames or call ``stop()``; each frame number is delivered
/// at most once. Cancelling the task that waits in ``nextFrame()`` stops the camera.
public actor SyntheticCamera: VideoSource, PacedSource {
    /// "synthetic camera 640x480@30".
    public nonisolated let name: String
    /// The picture width in pixels.
    public nonisolated let width: Int
    /// The picture height in pixels.
    public nonisolated let height: Int
    /// The layout of the delivered pictures.
    public nonisolated let format: PixelFormat
    /// The levels of the delivered pictures.
    public nonisolated let range: ColorRange
    /// The exact frame period; frame `n` has pts `n * frameDuration`.
    public nonisolated let frameDuration: MediaTime
    /// Whether frames are paced in real time (and dropped when the consumer is late).
    public nonisolated let isRealTime: Bool
    /// The stream ends before frame number `frameLimit` (frames dropped in real time count too), or never
    /// when `nil`.
    public nonisolated let frameLimit: Int?
    /// Whether each delivered frame carries its wall-clock delivery time as a ``CaptureTimecode``.
    public nonisolated let stampsCaptureTime: Bool

    /// The nominal frame rate in frames per second.
    public nonisolated var frameRate: Double { Double(frameDuration.timescale) / Double(frameDuration.value) }

    /// Frames that fell due while the consumer was late and were never delivered.
    public private(set) var droppedFrameCount = 0
    /// Frames delivered so far.
    public private(set) var deliveredFrameCount = 0

    private let pattern: TestPattern
    // clock, schedule and isStopped are internal (not private) to satisfy ``PacedSource``.
    let clock = ContinuousClock()
    var schedule: RealTimeSchedule?
    private var nextIndex: Int64 = 0
    var isStopped = false

    /// Creates a camera with a whole-number frame rate.
    /// - Parameters:
    ///   - width: picture width in pixels, 1…16384 (640 by default).
    ///   - height: picture height in pixels, 1…16384 (480 by default).
    ///   - frameRate: frames per second, 1…1000 (30 by default).
    ///   - format: the pixel layout (NV12 by default, like an iPhone camera).
    ///   - range: video (default) or full levels.
    ///   - realTime: pace frames in real time (default) or deliver them as fast as they are pulled.
    ///   - frameLimit: end the stream before this frame number (`nil`: never); at least 0.
    ///   - stampsCaptureTime: burn the wall-clock time of each delivered frame into it (``CaptureTimecode``), to
    ///     measure glass-to-glass latency; off by default, so that a frame's picture depends on its number alone.
    /// - Throws: ``CaptureError/invalidConfiguration(parameter:reason:)`` naming the parameter out of range.
    public init(width: Int = 640, height: Int = 480, frameRate: Int = 30, format: PixelFormat = .nv12,
                range: ColorRange = .video, realTime: Bool = true, frameLimit: Int? = nil,
                stampsCaptureTime: Bool = false) throws(CaptureError) {
        guard (1...1000).contains(frameRate) else {
            throw .invalidConfiguration(parameter: "frameRate", reason: "is \(frameRate); allowed 1…1000 frames per second")
        }
        try self.init(width: width, height: height, frameDuration: MediaTime(value: 1, timescale: Int32(frameRate)),
                      format: format, range: range, realTime: realTime, frameLimit: frameLimit, stampsCaptureTime: stampsCaptureTime)
    }

    /// Creates a camera with any rational frame period, for example `MediaTime(value: 1001, timescale: 30000)`
    /// for 29.97 frames per second.
    /// - Parameters:
    ///   - width: picture width in pixels, 1…16384.
    ///   - height: picture height in pixels, 1…16384.
    ///   - frameDuration: the frame period: positive, at most one hour, at least 1/1000 s, `value` ≤ `Int32.max`.
    ///   - format: the pixel layout.
    ///   - range: video or full levels.
    ///   - realTime: pace frames in real time or deliver them as fast as they are pulled.
    ///   - frameLimit: end the stream before this frame number (`nil`: never); at least 0.
    ///   - stampsCaptureTime: burn the wall-clock time of each delivered frame into it (``CaptureTimecode``).
    /// - Throws: ``CaptureError/invalidConfiguration(parameter:reason:)`` naming the parameter out of range.
    public init(width: Int, height: Int, frameDuration: MediaTime, format: PixelFormat = .nv12,
                range: ColorRange = .video, realTime: Bool = true, frameLimit: Int? = nil,
                stampsCaptureTime: Bool = false) throws(CaptureError) {
        guard (1...16384).contains(width) else {
            throw .invalidConfiguration(parameter: "width", reason: "is \(width); allowed 1…16384")
        }
        guard (1...16384).contains(height) else {
            throw .invalidConfiguration(parameter: "height", reason: "is \(height); allowed 1…16384")
        }
        let timescale = Int64(frameDuration.timescale)
        guard frameDuration.value > 0, frameDuration.value <= Int64(Int32.max),
              frameDuration.value * 1000 >= timescale, frameDuration.value <= 3600 * timescale else {
            throw .invalidConfiguration(parameter: "frameDuration",
                                        reason: "is \(frameDuration); allowed 1/1000 s … 3600 s with a value ≤ \(Int32.max)")
        }
        if let frameLimit, frameLimit < 0 {
            throw .invalidConfiguration(parameter: "frameLimit", reason: "is \(frameLimit); allowed ≥ 0")
        }
        self.width = width
        self.height = height
        self.format = format
        self.range = range
        self.frameDuration = frameDuration
        self.isRealTime = realTime
        self.frameLimit = frameLimit
        self.stampsCaptureTime = stampsCaptureTime
        self.pattern = TestPattern(width: width, height: height, format: format, range: range)
        self.name = "synthetic camera \(width)x\(height)@\(Self.rateText(frameDuration))"
    }

    /// The frame rate for people: "30", "29.97", "0.5".
    private static func rateText(_ period: MediaTime) -> String {
        let timescale = Int64(period.timescale)
        if timescale % period.value == 0 { return String(timescale / period.value) }
        let hundredths = (timescale * 100 + period.value / 2) / period.value
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The presentation time of a frame: `index * frameDuration`, exactly.
    /// - Parameter index: the frame number (≥ 0).
    /// - Returns: its pts.
    public nonisolated func pts(ofFrame index: Int64) -> MediaTime {
        MediaTime(value: index &* frameDuration.value, timescale: frameDuration.timescale)
    }

    /// Renders a frame without pacing or counting: the same picture ``nextFrame()`` delivers for that number.
    /// - Parameter index: the frame number (≥ 0).
    /// - Returns: the frame with its pts and duration.
    public nonisolated func frame(at index: Int64) -> CapturedFrame {
        let pts = pts(ofFrame: index)
        return CapturedFrame(pixelBuffer: pattern.render(index: index, pts: pts), pts: pts, duration: frameDuration)
    }

    /// Waits for the next frame: in real time, the frame due now (counting any missed ones as dropped) or the
    /// next one to fall due; otherwise the next frame at once. With ``stampsCaptureTime``, the frame carries the
    /// wall-clock time it is handed out at.
    /// - Returns: the frame, or `nil` once the frame limit is reached, after ``stop()``, or on cancellation.
    /// - Throws: never; the signature matches ``VideoSource``.
    public func nextFrame() async throws(CaptureError) -> CapturedFrame? {
        guard isRunning() else { return nil }
        let limit = frameLimit.map(Int64.init) ?? Int64.max
        var index = nextIndex
        guard index < limit else { return nil }
        if isRealTime {
            let now = clock.now
            let schedule = startSchedule(period: frameDuration, at: now)
            let due = schedule.dueIndex(at: now)
            if due > index {
                // The consumer is late: frames index ..< due were captured and overwritten before anyone took them.
                let newest = min(due, limit)
                droppedFrameCount += Int(newest - index)
                index = newest
                guard index < limit else {
                    nextIndex = limit
                    return nil
                }
            }
            nextIndex = index + 1  // claimed before waiting, so a concurrent caller gets the next frame
            guard await waitUntil(schedule.instant(of: index)) else { return nil }
        } else {
            nextIndex = index + 1
        }
        deliveredFrameCount += 1
        guard stampsCaptureTime else { return frame(at: index) }
        var frame = frame(at: index)
        CaptureTimecode(milliseconds: UInt64(max(0, RealTimeClock.millisecondsSinceEpoch()))).stamp(into: &frame.pixelBuffer)
        return frame
    }

    /// Ends the stream: a pending ``nextFrame()`` returns `nil` within about 20 ms, and so do later calls.
    public func stop() {
        isStopped = true
    }
}

extension SyntheticCamera: CustomStringConvertible {
    /// The camera's ``name``.
    public nonisolated var description: String { name }
}

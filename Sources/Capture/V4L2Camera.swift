import Foundation
import MediaCore

/// A Video4Linux2 camera (`/dev/videoN`) read with memory-mapped streaming I/O, in pure Swift.
///
/// Opening negotiates a format in this order of preference: NV12, YU12 (I420), NV21, YV12 — delivered as
/// they are — then YUYV, converted to NV12. The driver may adjust the size and frame rate; ``width``,
/// ``height`` and ``frameDuration`` hold what it agreed to. Streaming starts at the first ``nextFrame()``.
///
/// Each frame's pts comes from the driver's buffer timestamp, counted from the first frame (timescale
/// 1 000 000). Frames the driver skipped (gaps in its sequence numbers) or flagged as corrupt are counted in
/// ``droppedFrameCount``.
///
/// **Concurrency.** `Sendable`: all device access runs on a private serial dispatch queue, and the stop flag
/// and counters sit behind a lock; any task may pull frames or call ``stop()``. A pending ``nextFrame()``
/// notices ``stop()`` or the cancellation of its task within 50 ms; cancellation stops the camera.
/// ``stop()`` turns streaming off, unmaps the buffers and closes the device; so does releasing the camera.
public final class V4L2Camera: VideoSource, @unchecked Sendable {
    // @unchecked: `device` is used only on `deviceQueue` (or in deinit, when no other reference exists); the
    // mutable state shared with callers lives in `state`, a lock-protected box, and in `deviceQueue`'s stop flag.

    /// "V4L2 /dev/video0 (HD Pro Webcam C920)".
    public let name: String
    /// The device, as the driver describes it.
    public let info: V4L2DeviceInfo
    /// The picture width the driver agreed to.
    public let width: Int
    /// The picture height the driver agreed to.
    public let height: Int
    /// The layout of the delivered pictures (NV12 when the device sends YUYV).
    public let format: PixelFormat
    /// The FourCC the device sends, for example "YUYV".
    public let deviceFormat: String
    /// The frame period the driver agreed to (1/requested rate if the driver does not say).
    public let frameDuration: MediaTime

    /// The nominal frame rate in frames per second.
    public var frameRate: Double { Double(frameDuration.timescale) / Double(frameDuration.value) }
    /// Frames the driver skipped or flagged as corrupt.
    public var droppedFrameCount: Int { state.current.droppedFrames }

    private struct State: Sendable {
        var droppedFrames = 0
        var firstTimestamp: Int64?
        var lastSequence: UInt32?
    }

    private let device: V4L2Device
    private let deviceQueue: DeviceQueue
    private let state = LockedValue(State())
    /// How long one wait on the device lasts before the stop flag is checked again, in milliseconds.
    private static let pollInterval: Int32 = 50

    /// Opens and configures a camera.
    /// - Parameters:
    ///   - path: the device node (`/dev/video0` by default).
    ///   - width: the requested width, 1…16384 (640 by default).
    ///   - height: the requested height, 1…16384 (480 by default).
    ///   - frameRate: the requested frames per second, 1…1000 (30 by default).
    ///   - bufferCount: memory-mapped capture buffers, 2…32 (4 by default).
    /// - Throws: ``CaptureError/deviceNotFound(path:)`` if the node does not exist,
    ///   ``CaptureError/notAVideoDevice(path:reason:)`` if it is not V4L2,
    ///   ``CaptureError/notACaptureDevice(path:card:reason:)`` without single-planar streaming capture,
    ///   ``CaptureError/noSupportedFormat(path:offered:)`` without a 4:2:0 or YUYV format, or
    ///   ``CaptureError/systemCallFailed(call:path:errno:message:)`` with the errno text of a failed step.
    public init(device path: String = "/dev/video0", width: Int = 640, height: Int = 480, frameRate: Int = 30,
                bufferCount: Int = 4) throws(CaptureError) {
        guard (1...16384).contains(width) else {
            throw .invalidConfiguration(parameter: "width", reason: "is \(width); allowed 1…16384")
        }
        guard (1...16384).contains(height) else {
            throw .invalidConfiguration(parameter: "height", reason: "is \(height); allowed 1…16384")
        }
        guard (1...1000).contains(frameRate) else {
            throw .invalidConfiguration(parameter: "frameRate", reason: "is \(frameRate); allowed 1…1000")
        }
        guard (2...32).contains(bufferCount) else {
            throw .invalidConfiguration(parameter: "bufferCount", reason: "is \(bufferCount); allowed 2…32")
        }
        let device = try V4L2Device.configure(path: path, width: width, height: height, frameRate: frameRate,
                                              bufferCount: bufferCount)
        self.device = device
        self.info = V4L2DeviceInfo(path: path, card: device.identity.card, driver: device.identity.driver,
                                   busInfo: device.identity.busInfo)
        self.width = device.width
        self.height = device.height
        self.format = V4L2Device.preferredFormats.first { $0.fourCC == device.fourCC }?.delivered ?? .nv12
        self.deviceFormat = V4L2FrameConverter.fourCCText(device.fourCC)
        self.frameDuration = device.timePerFrame ?? MediaTime(value: 1, timescale: Int32(frameRate))
        self.name = "V4L2 \(path) (\(device.identity.card))"
        self.deviceQueue = DeviceQueue(label: "StreamKit.V4L2Camera \(path)")
    }

    /// Lists the V4L2 video capture devices: the `videoN` nodes of `directory` that answer `VIDIOC_QUERYCAP`
    /// with single-planar capture and streaming, sorted by number.
    /// - Parameter directory: where the device nodes are (`/dev`).
    /// - Returns: the capture devices; empty when there are none or V4L2 does not exist here.
    public static func availableDevices(in directory: String = "/dev") -> [V4L2DeviceInfo] {
        videoNodes(in: directory).compactMap(V4L2Device.captureDeviceInfo(at:))
    }

    /// The `videoN` entries of a directory, whatever they are, sorted by number.
    /// - Parameter directory: where to look (`/dev`).
    /// - Returns: their full paths.
    static func videoNodes(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)), number >= 0 else { return nil }
            return (number, name)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return numbered.sorted { $0.0 < $1.0 }.map { base + $0.1 }
    }

    /// Waits for the next frame from the device.
    /// - Returns: the frame, or `nil` after ``stop()`` or when the waiting task is cancelled.
    /// - Throws: ``CaptureError/systemCallFailed(call:path:errno:message:)`` if the device fails (for example
    ///   when it is unplugged); the camera is then closed.
    public func nextFrame() async throws(CaptureError) -> CapturedFrame? {
        try await deviceQueue.perform { self.readFrame() }
    }

    /// Stops streaming, unmaps the buffers and closes the device. A pending ``nextFrame()`` returns `nil`
    /// within 50 ms; so do later calls.
    public func stop() async {
        await deviceQueue.stop { self.device.shutDown() }
    }

    /// Runs on `deviceQueue`: polls the device until a good frame arrives or the camera is stopped.
    private func readFrame() -> Result<CapturedFrame?, CaptureError> {
        while true {
            if deviceQueue.isStopped {
                device.shutDown()
                return .success(nil)
            }
            let outcome: V4L2Device.Outcome
            do {
                outcome = try device.nextFrame(timeout: Self.pollInterval)
            } catch {
                deviceQueue.requestStop()
                device.shutDown()
                return .failure(error)
            }
            switch outcome {
            case .timedOut:
                continue
            case let .broken(sequence):
                state.withLock { state in
                    state.droppedFrames += 1 + Self.skipped(before: sequence, after: state.lastSequence)
                    state.lastSequence = sequence
                }
            case let .frame(picture, timestamp, sequence):
                let pts: MediaTime = state.withLock { state in
                    state.droppedFrames += Self.skipped(before: sequence, after: state.lastSequence)
                    state.lastSequence = sequence
                    let first = state.firstTimestamp ?? timestamp
                    state.firstTimestamp = first
                    return MediaTime(value: timestamp - first, timescale: 1_000_000)
                }
                return .success(CapturedFrame(pixelBuffer: picture, pts: pts, duration: frameDuration))
            }
        }
    }

    /// Frames the driver skipped between two sequence numbers.
    private static func skipped(before sequence: UInt32, after last: UInt32?) -> Int {
        guard let last else { return 0 }
        let gap = sequence &- last
        return gap >= 1 && gap < 1 << 16 ? Int(gap) - 1 : 0
    }
}

extension V4L2Camera: CustomStringConvertible {
    /// The camera's ``name``.
    public var description: String { name }
}

#if canImport(Glibc)
import Glibc
import MediaCore
import POSIX

/// An open V4L2 capture device with its memory-mapped buffers: the blocking half of ``V4L2Camera``.
///
/// Not thread-safe: the camera touches it from one serial queue only. Every call follows the Linux Media
/// Infrastructure userspace API, Part I (Video for Linux API), chapters "Streaming I/O (Memory Mapping)"
/// and the ioctl pages named on each method.
final class V4L2Device {
    /// What `VIDIOC_QUERYCAP` said.
    struct Identity: Sendable {
        var driver: String
        var card: String
        var busInfo: String
        /// The capabilities of this device node (`device_caps` when given, else `capabilities`).
        var capabilities: UInt32
    }

    /// The device formats StreamKit can deliver, in order of preference, and what each becomes.
    static let preferredFormats: [(fourCC: UInt32, delivered: PixelFormat)] = [
        (V4L2FrameConverter.nv12, .nv12), (V4L2FrameConverter.yu12, .i420),
        (V4L2FrameConverter.nv21, .nv21), (V4L2FrameConverter.yv12, .yv12),
        (V4L2FrameConverter.yuyv, .nv12),
    ]

    let path: String
    let identity: Identity
    /// The negotiated format.
    let width: Int
    let height: Int
    let fourCC: UInt32
    let bytesPerLine: Int
    /// The negotiated frame period (seconds per frame), if the driver reported one.
    let timePerFrame: MediaTime?
    private let descriptor: FileDescriptor
    private var mappings: [(address: UnsafeMutableRawPointer, length: Int)]
    private var isStreaming = false
    private var isClosed = false

    /// Opens a device node and checks it is a V4L2 device (`VIDIOC_QUERYCAP`).
    /// - Parameter path: for example `/dev/video0`.
    /// - Returns: the descriptor and what the device said about itself.
    /// - Throws: ``CaptureError/deviceNotFound(path:)``, ``CaptureError/notAVideoDevice(path:reason:)`` or
    ///   ``CaptureError/systemCallFailed(call:path:errno:message:)``.
    static func query(_ path: String) throws(CaptureError) -> (descriptor: FileDescriptor, identity: Identity) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readWrite, options: .nonBlocking)
        } catch {
            if error.errno == .noSuchFileOrDirectory { throw .deviceNotFound(path: path) }
            throw .system("open", path: path, errno: error.errno.rawValue)
        }
        var capability = V4L2ABI.Capability()
        let code = V4L2ABI.control(descriptor, V4L2ABI.queryCapability, &capability)
        guard code == 0 else {
            try? descriptor.close()
            throw .notAVideoDevice(path: path, reason: "\(CaptureError.errnoText(code)) (errno \(code))")
        }
        let capabilities = capability.capabilities & V4L2ABI.capabilityDeviceCaps != 0
            ? capability.deviceCaps : capability.capabilities
        return (descriptor, Identity(driver: V4L2ABI.string(capability.driver), card: V4L2ABI.string(capability.card),
                                     busInfo: V4L2ABI.string(capability.busInfo), capabilities: capabilities))
    }

    /// Describes a device node if it is a single-planar video capture device with streaming I/O
    /// (`VIDIOC_QUERYCAP`), closing it again.
    /// - Parameter path: the device node.
    /// - Returns: its description, or `nil` if it cannot be opened or cannot capture.
    static func captureDeviceInfo(at path: String) -> V4L2DeviceInfo? {
        guard let (descriptor, identity) = try? query(path) else { return nil }
        try? descriptor.close()
        let needed = V4L2ABI.capabilityVideoCapture | V4L2ABI.capabilityStreaming
        guard identity.capabilities & needed == needed else { return nil }
        return V4L2DeviceInfo(path: path, card: identity.card, driver: identity.driver, busInfo: identity.busInfo)
    }

    /// Opens and configures a capture device: capabilities (`VIDIOC_QUERYCAP`), format choice
    /// (`VIDIOC_ENUM_FMT`, `VIDIOC_S_FMT`), frame rate (`VIDIOC_G_PARM`/`VIDIOC_S_PARM`), and `bufferCount`
    /// memory-mapped buffers (`VIDIOC_REQBUFS`, `VIDIOC_QUERYBUF`, `mmap`, `VIDIOC_QBUF`).
    /// - Parameters:
    ///   - path: the device node.
    ///   - width: the requested width (the driver may pick the nearest it supports).
    ///   - height: the requested height.
    ///   - frameRate: the requested frames per second.
    ///   - bufferCount: capture buffers to request.
    /// - Returns: the configured device, not yet streaming.
    /// - Throws: ``CaptureError`` naming the failed step and the errno text; nothing stays open.
    static func configure(path: String, width: Int, height: Int, frameRate: Int, bufferCount: Int) throws(CaptureError) -> V4L2Device {
        let (descriptor, identity) = try query(path)
        var mappings: [(address: UnsafeMutableRawPointer, length: Int)] = []
        var succeeded = false
        defer {
            if !succeeded {
                for mapping in mappings { munmap(mapping.address, mapping.length) }
                try? descriptor.close()
            }
        }

        let capabilities = identity.capabilities
        guard capabilities & V4L2ABI.capabilityVideoCapture != 0 else {
            let reason = capabilities & V4L2ABI.capabilityVideoCaptureMultiplanar != 0
                ? "it captures only through the multi-planar API, which StreamKit does not use"
                : "it has no video capture capability (capabilities 0x\(String(capabilities, radix: 16)))"
            throw .notACaptureDevice(path: path, card: identity.card, reason: reason)
        }
        guard capabilities & V4L2ABI.capabilityStreaming != 0 else {
            throw .notACaptureDevice(path: path, card: identity.card, reason: "it does not support streaming I/O")
        }

        // VIDIOC_ENUM_FMT until EINVAL.
        var offered: [UInt32] = []
        for index in 0..<256 {
            var description = V4L2ABI.FormatDescription()
            description.index = UInt32(index)
            description.type = V4L2ABI.bufferTypeVideoCapture
            let code = V4L2ABI.control(descriptor, V4L2ABI.enumerateFormats, &description)
            if code == EINVAL { break }
            guard code == 0 else { throw .system("VIDIOC_ENUM_FMT", path: path, errno: code) }
            offered.append(description.pixelFormat)
        }
        guard let choice = preferredFormats.first(where: { offered.contains($0.fourCC) }) else {
            throw .noSupportedFormat(path: path, offered: offered.map(V4L2FrameConverter.fourCCText))
        }

        // VIDIOC_S_FMT: the driver answers with what it will really deliver.
        var format = V4L2ABI.Format()
        format.type = V4L2ABI.bufferTypeVideoCapture
        format.pix.width = UInt32(clamping: width)
        format.pix.height = UInt32(clamping: height)
        format.pix.pixelFormat = choice.fourCC
        format.pix.field = V4L2ABI.fieldNone
        var code = V4L2ABI.control(descriptor, V4L2ABI.setFormat, &format)
        guard code == 0 else { throw .system("VIDIOC_S_FMT", path: path, errno: code) }
        guard format.pix.pixelFormat == choice.fourCC else {
            throw .deviceMisbehaved(path: path, reason: "VIDIOC_S_FMT replaced \(V4L2FrameConverter.fourCCText(choice.fourCC)) "
                                    + "with \(V4L2FrameConverter.fourCCText(format.pix.pixelFormat))")
        }
        let deliveredWidth = Int(format.pix.width), deliveredHeight = Int(format.pix.height)
        guard (1...16384).contains(deliveredWidth), (1...16384).contains(deliveredHeight) else {
            throw .deviceMisbehaved(path: path, reason: "VIDIOC_S_FMT set an impossible size \(deliveredWidth)x\(deliveredHeight)")
        }
        let minimumLine = choice.fourCC == V4L2FrameConverter.yuyv ? 2 * deliveredWidth : deliveredWidth
        let bytesPerLine = max(Int(format.pix.bytesPerLine), minimumLine)

        // VIDIOC_S_PARM: ask for 1/frameRate seconds per frame, where the driver allows it.
        var parameters = V4L2ABI.StreamParameters()
        parameters.type = V4L2ABI.bufferTypeVideoCapture
        var period: MediaTime?
        if V4L2ABI.control(descriptor, V4L2ABI.getParameters, &parameters) == 0 {
            if parameters.capture.capability & V4L2ABI.captureTimePerFrame != 0 {
                parameters.capture.timePerFrame = V4L2ABI.Fraction(numerator: 1, denominator: UInt32(clamping: frameRate))
                _ = V4L2ABI.control(descriptor, V4L2ABI.setParameters, &parameters)
            }
            let fraction = parameters.capture.timePerFrame
            if fraction.numerator > 0, fraction.denominator > 0, fraction.denominator <= UInt32(Int32.max) {
                period = MediaTime(value: Int64(fraction.numerator), timescale: Int32(fraction.denominator))
            }
        }

        // VIDIOC_REQBUFS + VIDIOC_QUERYBUF + mmap + VIDIOC_QBUF.
        var request = V4L2ABI.RequestBuffers()
        request.count = UInt32(clamping: bufferCount)
        request.type = V4L2ABI.bufferTypeVideoCapture
        request.memory = V4L2ABI.memoryMMAP
        code = V4L2ABI.control(descriptor, V4L2ABI.requestBuffers, &request)
        guard code == 0 else { throw .system("VIDIOC_REQBUFS", path: path, errno: code) }
        guard request.count >= 1, request.count <= 64 else {
            throw .deviceMisbehaved(path: path, reason: "VIDIOC_REQBUFS granted \(request.count) buffers")
        }
        for index in 0..<request.count {
            var buffer = V4L2ABI.Buffer()
            buffer.index = index
            buffer.type = V4L2ABI.bufferTypeVideoCapture
            buffer.memory = V4L2ABI.memoryMMAP
            code = V4L2ABI.control(descriptor, V4L2ABI.queryBuffer, &buffer)
            guard code == 0 else { throw .system("VIDIOC_QUERYBUF", path: path, errno: code) }
            let length = Int(buffer.length)
            guard length > 0 else { throw .deviceMisbehaved(path: path, reason: "buffer \(index) has length 0") }
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, off_t(buffer.offset))
            guard let address, address != MAP_FAILED else { throw .system("mmap", path: path, errno: errno) }
            mappings.append((address, length))
            code = V4L2ABI.control(descriptor, V4L2ABI.queueBuffer, &buffer)
            guard code == 0 else { throw .system("VIDIOC_QBUF", path: path, errno: code) }
        }
        succeeded = true
        return V4L2Device(path: path, identity: identity, descriptor: descriptor, width: deliveredWidth,
                          height: deliveredHeight, fourCC: choice.fourCC, bytesPerLine: bytesPerLine,
                          timePerFrame: period, mappings: mappings)
    }

    private init(path: String, identity: Identity, descriptor: FileDescriptor, width: Int, height: Int, fourCC: UInt32,
                 bytesPerLine: Int, timePerFrame: MediaTime?, mappings: [(address: UnsafeMutableRawPointer, length: Int)]) {
        self.path = path
        self.identity = identity
        self.descriptor = descriptor
        self.width = width
        self.height = height
        self.fourCC = fourCC
        self.bytesPerLine = bytesPerLine
        self.timePerFrame = timePerFrame
        self.mappings = mappings
    }

    deinit {
        shutDown()
    }

    /// What one wait for a frame produced.
    enum Outcome {
        /// A frame: the converted picture, the buffer's timestamp in microseconds, and its sequence number.
        case frame(PixelBuffer, timestampMicroseconds: Int64, sequence: UInt32)
        /// The device flagged the buffer as corrupt or it was too short: it was requeued and must be counted as dropped.
        case broken(sequence: UInt32)
        /// Nothing arrived within the timeout.
        case timedOut
    }

    /// Starts streaming if needed, waits up to `timeout` milliseconds (`poll`), and dequeues one buffer
    /// (`VIDIOC_DQBUF`), converts it, and queues it again (`VIDIOC_QBUF`).
    /// - Parameter timeout: the longest wait in milliseconds.
    /// - Returns: what happened.
    /// - Throws: ``CaptureError/systemCallFailed(call:path:errno:message:)`` if the device fails.
    func nextFrame(timeout: Int32) throws(CaptureError) -> Outcome {
        guard !isClosed else { return .timedOut }
        if !isStreaming {
            var type = Int32(V4L2ABI.bufferTypeVideoCapture)
            let code = V4L2ABI.control(descriptor, V4L2ABI.streamOn, &type)
            guard code == 0 else { throw .system("VIDIOC_STREAMON", path: path, errno: code) }
            isStreaming = true
        }
        // poll(2) through POSIX: a signal does not end the wait early (the time left is waited again).
        let ready: PollEvents
        do {
            ready = try descriptor.poll(for: .readable, timeout: .milliseconds(Int64(max(0, timeout))))
        } catch {
            throw .system("poll", path: path, errno: error.errno.rawValue)
        }
        if ready.isEmpty { return .timedOut }
        if ready.contains(.error) && !ready.contains(.readable) {
            throw .systemCallFailed(call: "poll", path: path, errno: EIO, message: "the device reported an error (POLLERR)")
        }

        var buffer = V4L2ABI.Buffer()
        buffer.type = V4L2ABI.bufferTypeVideoCapture
        buffer.memory = V4L2ABI.memoryMMAP
        var code = V4L2ABI.control(descriptor, V4L2ABI.dequeueBuffer, &buffer)
        if code == EAGAIN { return .timedOut }
        guard code == 0 else { throw .system("VIDIOC_DQBUF", path: path, errno: code) }
        let index = Int(buffer.index)
        guard index < mappings.count else {
            throw .deviceMisbehaved(path: path, reason: "VIDIOC_DQBUF returned buffer \(index) of \(mappings.count)")
        }
        let mapping = mappings[index]
        let used = min(Int(buffer.bytesUsed), mapping.length)
        let picture: PixelBuffer?
        if buffer.flags & V4L2ABI.bufferFlagError != 0 {
            picture = nil
        } else {
            picture = V4L2FrameConverter.pixelBuffer(
                from: UnsafeRawBufferPointer(start: mapping.address, count: used),
                fourCC: fourCC, width: width, height: height, bytesPerLine: bytesPerLine)
        }
        let timestamp = Int64(buffer.timestamp.tv_sec) &* 1_000_000 &+ Int64(buffer.timestamp.tv_usec)
        let sequence = buffer.sequence
        code = V4L2ABI.control(descriptor, V4L2ABI.queueBuffer, &buffer)
        guard code == 0 else { throw .system("VIDIOC_QBUF", path: path, errno: code) }
        guard let picture else { return .broken(sequence: sequence) }
        return .frame(picture, timestampMicroseconds: timestamp, sequence: sequence)
    }

    /// Stops streaming (`VIDIOC_STREAMOFF`), unmaps the buffers and closes the device. Safe to call twice.
    func shutDown() {
        guard !isClosed else { return }
        isClosed = true
        if isStreaming {
            var type = Int32(V4L2ABI.bufferTypeVideoCapture)
            _ = V4L2ABI.control(descriptor, V4L2ABI.streamOff, &type)
            isStreaming = false
        }
        unmapAll()
        try? descriptor.close()
    }

    private func unmapAll() {
        for mapping in mappings { munmap(mapping.address, mapping.length) }
        mappings.removeAll()
    }
}
#else
import MediaCore

/// Where V4L2 does not exist (Apple platforms) every device fails to open with a clear error.
final class V4L2Device {
    struct Identity: Sendable {
        var driver: String
        var card: String
        var busInfo: String
        var capabilities: UInt32
    }

    enum Outcome {
        case frame(PixelBuffer, timestampMicroseconds: Int64, sequence: UInt32)
        case broken(sequence: UInt32)
        case timedOut
    }

    static let preferredFormats: [(fourCC: UInt32, delivered: PixelFormat)] = []
    let identity = Identity(driver: "", card: "", busInfo: "", capabilities: 0)
    let width = 0
    let height = 0
    let fourCC: UInt32 = 0
    let timePerFrame: MediaTime? = nil

    private init() {}

    static func captureDeviceInfo(at path: String) -> V4L2DeviceInfo? { nil }

    static func configure(path: String, width: Int, height: Int, frameRate: Int, bufferCount: Int) throws(CaptureError) -> V4L2Device {
        throw .notAVideoDevice(path: path, reason: "Video4Linux2 exists only on Linux")
    }

    func nextFrame(timeout: Int32) throws(CaptureError) -> Outcome { .timedOut }

    func shutDown() {}
}
#endif

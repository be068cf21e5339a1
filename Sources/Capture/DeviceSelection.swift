import Foundation
import MediaCore

/// The live source ``defaultVideoSource(width:height:fps:device:deviceDirectory:)`` or
/// ``defaultAudioSource(sampleRate:channels:device:library:listing:)`` picked, and a sentence saying why.
public struct DeviceSelection<Source: Sendable>: Sendable, CustomStringConvertible {
    /// The source to pull from.
    public let source: Source
    /// Whether it is the synthetic camera or microphone (no real device was usable).
    public let isSynthetic: Bool
    /// Which source was chosen and why, for example
    /// "no V4L2 camera found (/dev/video* absent); using the synthetic camera 640x480@30".
    public let reason: String

    /// Creates a selection.
    /// - Parameters:
    ///   - source: the chosen source.
    ///   - isSynthetic: whether it is synthetic.
    ///   - reason: the sentence explaining the choice.
    public init(source: Source, isSynthetic: Bool, reason: String) {
        self.source = source
        self.isSynthetic = isSynthetic
        self.reason = reason
    }

    /// The ``reason``.
    public var description: String { reason }
}

/// Picks the camera to capture from: the named V4L2 device if one is given and opens, else the first V4L2
/// capture device that opens, else the synthetic camera — and says which and why. Spelled
/// `Capture.defaultVideoSource(…)` from outside the module.
/// - Parameters:
///   - width: the wanted width (640 by default).
///   - height: the wanted height (480 by default).
///   - fps: the wanted frames per second (30 by default).
///   - device: a V4L2 device node to use, for example `/dev/video2`; `nil` to take the first that works.
///   - deviceDirectory: where to look for `video*` nodes (`/dev`).
/// - Returns: the source, real-time paced if synthetic, and the sentence explaining the choice.
/// - Throws: ``CaptureError/invalidConfiguration(parameter:reason:)`` if the size or rate is out of range for
///   any camera, synthetic included.
public func defaultVideoSource(width: Int = 640, height: Int = 480, fps: Int = 30, device: String? = nil,
                               deviceDirectory: String = "/dev") throws(CaptureError) -> DeviceSelection<any VideoSource> {
    func synthetic(_ why: String) throws(CaptureError) -> DeviceSelection<any VideoSource> {
        let camera = try SyntheticCamera(width: width, height: height, frameRate: fps)
        return DeviceSelection(source: camera, isSynthetic: true, reason: "\(why); using the \(camera.name)")
    }
    if let device {
        do {
            let camera = try V4L2Camera(device: device, width: width, height: height, frameRate: fps)
            return DeviceSelection(source: camera, isSynthetic: false,
                                   reason: "using the V4L2 camera \(camera.info) as asked, \(camera.deviceFormat) "
                                       + "\(camera.width)x\(camera.height)")
        } catch {
            if case .invalidConfiguration = error { throw error }
            return try synthetic("could not open the requested camera \(device): \(error)")
        }
    }
    let nodes = V4L2Camera.videoNodes(in: deviceDirectory)
    let pattern = (deviceDirectory.hasSuffix("/") ? deviceDirectory : deviceDirectory + "/") + "video*"
    guard !nodes.isEmpty else { return try synthetic("no V4L2 camera found (\(pattern) absent)") }
    var failures: [String] = []
    for path in nodes {
        do {
            let camera = try V4L2Camera(device: path, width: width, height: height, frameRate: fps)
            return DeviceSelection(source: camera, isSynthetic: false,
                                   reason: "using the V4L2 camera \(camera.info), the first capture device that opened, "
                                       + "\(camera.deviceFormat) \(camera.width)x\(camera.height)")
        } catch {
            if case .invalidConfiguration = error { throw error }
            failures.append(error.description)
        }
    }
    return try synthetic("no usable V4L2 camera among \(pattern) (\(failures.joined(separator: "; ")))")
}

/// Picks the microphone to capture from: the named ALSA device if one is given and opens, else ALSA's
/// "default" device or the first capture device the kernel lists that opens, else the synthetic microphone —
/// and says which and why. Spelled `Capture.defaultAudioSource(…)` from outside the module.
/// - Parameters:
///   - sampleRate: the wanted rate (48000 by default).
///   - channels: the wanted channel count (1 by default).
///   - device: an ALSA device name to use, for example "plughw:1,0"; `nil` to take the first that works.
///   - library: the ALSA library to load (`libasound.so.2`).
///   - listing: the kernel's PCM listing (`/proc/asound/pcm`).
/// - Returns: the source, real-time paced if synthetic, and the sentence explaining the choice.
/// - Throws: ``CaptureError/invalidConfiguration(parameter:reason:)`` if the rate or channel count is out of
///   range for any microphone, synthetic included.
public func defaultAudioSource(sampleRate: Int = 48000, channels: Int = 1, device: String? = nil,
                               library: String = "libasound.so.2",
                               listing: String = "/proc/asound/pcm") throws(CaptureError) -> DeviceSelection<any AudioSource> {
    func synthetic(_ why: String) throws(CaptureError) -> DeviceSelection<any AudioSource> {
        let microphone = try SyntheticMicrophone(sampleRate: sampleRate, channelCount: channels)
        return DeviceSelection(source: microphone, isSynthetic: true, reason: "\(why); using the \(microphone.name)")
    }
    func open(_ name: String) throws(CaptureError) -> ALSAMicrophone {
        try ALSAMicrophone(device: name, sampleRate: sampleRate, channelCount: channels, library: library)
    }
    do {
        _ = try ALSALibrary(name: library)
    } catch {
        return try synthetic("ALSA is not available (\(error))")
    }
    if let device {
        do {
            let microphone = try open(device)
            return DeviceSelection(source: microphone, isSynthetic: false,
                                   reason: "using the ALSA device \"\(device)\" as asked, \(microphone.sampleRate) Hz")
        } catch {
            if case .invalidConfiguration = error { throw error }
            return try synthetic("could not open the requested ALSA device \"\(device)\": \(error)")
        }
    }
    let devices = ALSAMicrophone.availableDevices(listing: listing)
    guard !devices.isEmpty else {
        let state = FileManager.default.fileExists(atPath: listing) ? "lists no capture device" : "absent"
        return try synthetic("no ALSA capture device found (\(listing) \(state))")
    }
    var failures: [String] = []
    for (name, label) in [("default", "ALSA's default device")] + devices.map({ ($0.alsaName, "the ALSA device \($0)") }) {
        do {
            let microphone = try open(name)
            return DeviceSelection(source: microphone, isSynthetic: false,
                                   reason: "using \(label), the first capture device that opened, \(microphone.sampleRate) Hz")
        } catch {
            if case .invalidConfiguration = error { throw error }
            failures.append(error.description)
        }
    }
    return try synthetic("no ALSA capture device could be opened (\(failures.joined(separator: "; ")))")
}

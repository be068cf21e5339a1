import Foundation
import MediaCore
import Testing
import TestSupport
@testable import Capture

/// Device selection falls back to the synthetic sources when no device is usable, and says why.
@Suite("Device selection")
struct DeviceSelectionTests {
    @Test("no video* nodes: the synthetic camera, and the sentence says the cameras are absent")
    func noCameraNodes() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let selection = try defaultVideoSource(width: 320, height: 240, fps: 15, deviceDirectory: directory.path)
        #expect(selection.isSynthetic)
        #expect(selection.reason == "no V4L2 camera found (\(directory.path)/video* absent); using the synthetic camera 320x240@15")
        #expect(selection.source.width == 320 && selection.source.height == 240 && selection.source.frameRate == 15)
        #expect(selection.source.format == .nv12)
        await selection.source.stop()
    }

    @Test("video* nodes that are not cameras: the synthetic camera, and the sentence names each failure")
    func nodesThatAreNotCameras() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("video0").path, contents: Data([0]))
        let selection = try defaultVideoSource(deviceDirectory: directory.path)
        #expect(selection.isSynthetic)
        #expect(selection.reason.contains("\(directory.path)/video0"))
        #expect(selection.reason.hasSuffix("; using the synthetic camera 640x480@30"))
    }

    @Test("a named camera that does not exist: the synthetic camera, and the sentence names it")
    func namedCameraMissing() throws {
        let selection = try defaultVideoSource(device: "/dev/video99")
        #expect(selection.isSynthetic)
        #expect(selection.reason == "could not open the requested camera /dev/video99: no such video device: /dev/video99 "
                + "does not exist; using the synthetic camera 640x480@30")
    }

    @Test("on this machine (no camera) the default is synthetic and says so")
    func thisMachine() throws {
        let selection = try defaultVideoSource()
        if V4L2Camera.availableDevices().isEmpty {
            #expect(selection.isSynthetic)
            #expect(selection.reason.hasSuffix("using the synthetic camera 640x480@30"))
            if V4L2Camera.videoNodes(in: "/dev").isEmpty {
                #expect(selection.reason.hasPrefix("no V4L2 camera found (/dev/video* absent)"))
            }
        }
        #expect(!selection.reason.isEmpty)
    }

    @Test("an impossible size is an error, not a fallback")
    func invalidSize() {
        #expect(throws: CaptureError.self) { try defaultVideoSource(width: 0, height: 480, fps: 30) }
        #expect(throws: CaptureError.self) { try defaultAudioSource(sampleRate: 10) }
    }

    @Test("no ALSA library: the synthetic microphone, and the sentence says ALSA is not available")
    func noALSALibrary() async throws {
        let selection = try defaultAudioSource(sampleRate: 44100, channels: 2, library: "/nonexistent/libasound.so.2")
        #expect(selection.isSynthetic)
        #expect(selection.reason.hasPrefix("ALSA is not available (cannot load /nonexistent/libasound.so.2: "))
        #expect(selection.reason.hasSuffix("; using the synthetic microphone 440 Hz, 44100 Hz, 2 ch"))
        #expect(selection.source.sampleRate == 44100 && selection.source.channelCount == 2)
        await selection.source.stop()
    }

    @Test("no capture device listed: the synthetic microphone, and the sentence says the listing is absent")
    func noALSADevice() throws {
        let selection = try defaultAudioSource(listing: "/nonexistent/asound/pcm")
        #expect(selection.isSynthetic)
        // Either libasound is missing here, or it is present and the kernel lists no device.
        let noDevice = "no ALSA capture device found (/nonexistent/asound/pcm absent); using the synthetic microphone 440 Hz, 48000 Hz, 1 ch"
        #expect(selection.reason == noDevice || selection.reason.hasPrefix("ALSA is not available"), "\(selection.reason)")
    }

    @Test("a named ALSA device that cannot be opened: the synthetic microphone, and the sentence names it")
    func namedALSADeviceMissing() throws {
        let selection = try defaultAudioSource(device: "hw:99,0")
        #expect(selection.isSynthetic)
        #expect(selection.reason.contains("hw:99,0") || selection.reason.hasPrefix("ALSA is not available"), "\(selection.reason)")
        #expect(selection.description == selection.reason)
    }
}

import Foundation
import MediaCore
import Testing
import TestSupport
@testable import Capture

/// ALSA on a machine without a sound card: typed errors, never a crash; the kernel's PCM listing is parsed.
@Suite("ALSA microphone")
struct ALSAMicrophoneTests {
    @Test("a library that cannot be loaded is libraryUnavailable, with dlerror's text")
    func missingLibrary() {
        do {
            _ = try ALSAMicrophone(library: "/nonexistent/libasound.so.2")
            Issue.record("opened a microphone through a library that does not exist")
        } catch {
            guard case let .libraryUnavailable(library, reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(library == "/nonexistent/libasound.so.2")
            #expect(reason.contains("No such file or directory"), "\(reason)")
        }
    }

    @Test("a library without ALSA's functions is symbolMissing")
    func wrongLibrary() {
        #if os(Linux)
        // libc is always there and has no snd_pcm_open.
        #expect(throws: CaptureError.symbolMissing(library: "libc.so.6", symbol: "snd_pcm_open")) {
            try ALSAMicrophone(library: "libc.so.6")
        }
        #endif
    }

    @Test("opening the default microphone on this machine gives a typed error or a working device, not a crash")
    func defaultDevice() async {
        do {
            let microphone = try ALSAMicrophone()
            // A machine with a sound card: the device opened; release it again.
            #expect(microphone.sampleRate > 0)
            await microphone.stop()
            #expect(try await microphone.nextBuffer() == nil)
        } catch {
            switch error {
            case .libraryUnavailable, .audioDeviceUnavailable, .audioCallFailed:
                #expect(!error.description.isEmpty)
            default:
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test("a card that does not exist is audioDeviceUnavailable (or libraryUnavailable without libasound)")
    func missingCard() {
        do {
            _ = try ALSAMicrophone(device: "hw:99,0")
            Issue.record("opened hw:99,0")
        } catch {
            switch error {
            case let .audioDeviceUnavailable(device, code, message):
                #expect(device == "hw:99,0")
                #expect(code < 0)
                #expect(!message.isEmpty)
                #expect(error.description.contains("hw:99,0"))
            case .libraryUnavailable:
                break
            default:
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test("bad parameters are rejected before ALSA is touched")
    func invalidParameters() {
        #expect(throws: CaptureError.invalidConfiguration(parameter: "channelCount", reason: "is 9; allowed 1…8")) {
            try ALSAMicrophone(channelCount: 9, library: "/nonexistent/libasound.so.2")
        }
    }

    @Test("the kernel's /proc/asound/pcm listing yields the capture devices")
    func procListing() throws {
        // Lines in the format of Linux sound/core/pcm.c (snd_pcm_proc_read): "CC-DD: id : name : playback N : capture N".
        let listing = """
            00-00: ALC892 Analog : ALC892 Analog : playback 1 : capture 1
            00-01: ALC892 Digital : ALC892 Digital : playback 1
            00-02: ALC892 Alt Analog : ALC892 Alt Analog : capture 2
            01-03: HDMI 0 : HDMI 0 : playback 1
            garbage line
            02-00: USB Audio : USB Audio : capture 1

            """
        let devices = ALSADeviceInfo.captureDevices(inProcListing: listing)
        #expect(devices.map(\.alsaName) == ["plughw:0,0", "plughw:0,2", "plughw:2,0"])
        #expect(devices.first?.displayName == "ALC892 Analog")
        #expect(devices.last?.description == "plughw:2,0 (USB Audio)")

        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pcm").path
        try Data(listing.utf8).write(to: URL(fileURLWithPath: path))
        #expect(ALSAMicrophone.availableDevices(listing: path) == devices)
        #expect(ALSAMicrophone.availableDevices(listing: directory.appendingPathComponent("absent").path).isEmpty)
    }
}

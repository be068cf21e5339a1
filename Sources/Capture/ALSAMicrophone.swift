import Foundation
import MediaCore

/// An ALSA capture device read as interleaved signed 16-bit PCM, in pure Swift: libasound is loaded at run
/// time (`dlopen("libasound.so.2")`), so a machine without it gets a typed error, not a failed launch.
///
/// Opening configures the hardware (`snd_pcm_hw_params_malloc`/`_any`/`_set_access` RW interleaved/
/// `_set_format` S16_LE/`_set_channels`/`_set_rate_near`/`_set_period_size_near`/`_set_buffer_size_near`/
/// `snd_pcm_hw_params`/`_free`); ``sampleRate`` holds the rate the device agreed to. Blocks are read with
/// `snd_pcm_readi`; an overrun (the consumer fell behind and the ring buffer overflowed, `-EPIPE`) is recovered
/// with `snd_pcm_recover`, counted in ``overrunCount``, and the pts jump to the wall-clock position so audio
/// stays in step with video.
///
/// **Concurrency.** `Sendable`: the PCM handle is used only on a private serial dispatch queue; the stop
/// flag and counters sit behind a lock. A pending ``nextBuffer()`` notices ``stop()`` or the cancellation of
/// its task within 50 ms; cancellation stops the microphone. ``stop()`` closes the device (`snd_pcm_close`);
/// so does releasing the microphone.
public final class ALSAMicrophone: AudioSource, @unchecked Sendable {
    // @unchecked: `pcm` is used only on `deviceQueue` (or in deinit); shared mutable state lives in `state`
    // and in `deviceQueue`'s stop flag.

    /// "ALSA plughw:0,0".
    public let name: String
    /// The ALSA device name it was opened by, for example "default" or "plughw:0,0".
    public let device: String
    /// The sample rate the device agreed to.
    public let sampleRate: Int
    /// Channels, interleaved.
    public let channelCount: Int
    /// Samples per channel in each delivered block.
    public let samplesPerBuffer: Int

    /// Overruns recovered so far.
    public var overrunCount: Int { state.current.overruns }

    private struct State: Sendable {
        var overruns = 0
        /// The sample number of the next block's first sample.
        var position: Int64 = 0
        var start: ContinuousClock.Instant?
    }

    private let pcm: PCMHandle
    private let deviceQueue: DeviceQueue
    private let state = LockedValue(State())
    private static let waitInterval: Int32 = 50

    /// Opens a capture device.
    /// - Parameters:
    ///   - device: the ALSA device name ("default" by default; see ``availableDevices(listing:)``).
    ///   - sampleRate: the requested rate, 8000…192000 (48000 by default); the device may pick the nearest.
    ///   - channelCount: channels, 1…8 (1 by default).
    ///   - samplesPerBuffer: samples per channel in each block, 64…65536 (1024 by default).
    ///   - library: the ALSA library to load (`libasound.so.2`).
    /// - Throws: ``CaptureError/libraryUnavailable(library:reason:)`` or ``CaptureError/symbolMissing(library:symbol:)``
    ///   without a usable libasound, ``CaptureError/audioDeviceUnavailable(device:code:message:)`` if the device
    ///   cannot be opened, ``CaptureError/audioCallFailed(device:call:code:message:)`` if it refuses the
    ///   configuration.
    public init(device: String = "default", sampleRate: Int = 48000, channelCount: Int = 1,
                samplesPerBuffer: Int = 1024, library: String = "libasound.so.2") throws(CaptureError) {
        guard (8000...192_000).contains(sampleRate) else {
            throw .invalidConfiguration(parameter: "sampleRate", reason: "is \(sampleRate); allowed 8000…192000 Hz")
        }
        guard (1...8).contains(channelCount) else {
            throw .invalidConfiguration(parameter: "channelCount", reason: "is \(channelCount); allowed 1…8")
        }
        guard (64...65536).contains(samplesPerBuffer) else {
            throw .invalidConfiguration(parameter: "samplesPerBuffer", reason: "is \(samplesPerBuffer); allowed 64…65536")
        }
        let alsa = try ALSALibrary(name: library)
        var handle: OpaquePointer?
        let opened = device.withCString { alsa.pcmOpen(&handle, $0, ALSALibrary.streamCapture, ALSALibrary.modeNonBlocking) }
        guard opened >= 0, let handle else {
            throw .audioDeviceUnavailable(device: device, code: opened, message: alsa.message(opened))
        }
        let pcm = PCMHandle(pointer: handle, library: alsa)
        let rate = try Self.configure(pcm, device: device, sampleRate: sampleRate, channelCount: channelCount,
                                      samplesPerBuffer: samplesPerBuffer)
        self.pcm = pcm
        self.device = device
        self.sampleRate = rate
        self.channelCount = channelCount
        self.samplesPerBuffer = samplesPerBuffer
        self.name = "ALSA \(device)"
        self.deviceQueue = DeviceQueue(label: "StreamKit.ALSAMicrophone \(device)")
    }

    /// Sets the hardware parameters: RW interleaved access, S16_LE, the channels, the nearest rate, a period of
    /// `samplesPerBuffer` and a ring buffer of four periods; then prepares the device.
    /// - Returns: the rate the device agreed to.
    private static func configure(_ pcm: PCMHandle, device: String, sampleRate: Int, channelCount: Int,
                                  samplesPerBuffer: Int) throws(CaptureError) -> Int {
        let alsa = pcm.library
        var allocated: OpaquePointer?
        let code = alsa.parametersMalloc(&allocated)
        guard code >= 0, let parameters = allocated else {
            throw .audioCallFailed(device: device, call: "snd_pcm_hw_params_malloc", code: code, message: alsa.message(code))
        }
        defer { alsa.parametersFree(parameters) }
        func check(_ call: String, _ code: Int32) throws(CaptureError) {
            guard code >= 0 else { throw .audioCallFailed(device: device, call: call, code: code, message: alsa.message(code)) }
        }
        let handle = pcm.pointer
        try check("snd_pcm_hw_params_any", alsa.parametersAny(handle, parameters))
        try check("snd_pcm_hw_params_set_access",
                  alsa.parametersSetAccess(handle, parameters, ALSALibrary.accessReadWriteInterleaved))
        try check("snd_pcm_hw_params_set_format", alsa.parametersSetFormat(handle, parameters, ALSALibrary.formatS16LittleEndian))
        try check("snd_pcm_hw_params_set_channels", alsa.parametersSetChannels(handle, parameters, UInt32(channelCount)))
        var rate = UInt32(sampleRate)
        try check("snd_pcm_hw_params_set_rate_near", alsa.parametersSetRateNear(handle, parameters, &rate, nil))
        var period = UInt(samplesPerBuffer)
        try check("snd_pcm_hw_params_set_period_size_near", alsa.parametersSetPeriodSizeNear(handle, parameters, &period, nil))
        var ring = UInt(4 * samplesPerBuffer)
        try check("snd_pcm_hw_params_set_buffer_size_near", alsa.parametersSetBufferSizeNear(handle, parameters, &ring))
        try check("snd_pcm_hw_params", alsa.parametersApply(handle, parameters))
        try check("snd_pcm_prepare", alsa.pcmPrepare(handle))
        guard (1...1_000_000).contains(Int(rate)) else {
            throw .audioCallFailed(device: device, call: "snd_pcm_hw_params_set_rate_near", code: 0,
                                   message: "the device chose an impossible rate \(rate)")
        }
        return Int(rate)
    }

    /// Lists the ALSA devices that can capture, from the kernel's listing.
    /// - Parameter listing: the listing file (`/proc/asound/pcm`).
    /// - Returns: the capture devices; empty when the file is absent (no sound driver) or lists none.
    public static func availableDevices(listing: String = "/proc/asound/pcm") -> [ALSADeviceInfo] {
        guard let data = FileManager.default.contents(atPath: listing) else { return [] }
        return ALSADeviceInfo.captureDevices(inProcListing: String(decoding: data, as: UTF8.self))
    }

    /// Waits for the next block of samples.
    /// - Returns: the block, or `nil` after ``stop()`` or when the waiting task is cancelled.
    /// - Throws: ``CaptureError/audioCallFailed(device:call:code:message:)`` if reading fails beyond recovery;
    ///   the microphone is then closed.
    public func nextBuffer() async throws(CaptureError) -> CapturedAudio? {
        try await deviceQueue.perform { self.readBlock() }
    }

    /// Closes the device. A pending ``nextBuffer()`` returns `nil` within 50 ms; so do later calls.
    public func stop() async {
        await deviceQueue.stop { self.pcm.close() }
    }

    /// Runs on `deviceQueue`: reads until one block is full, recovering from overruns.
    private func readBlock() -> Result<CapturedAudio?, CaptureError> {
        let alsa = pcm.library
        let frameBytes = 2 * channelCount
        var bytes = [UInt8](repeating: 0, count: samplesPerBuffer * frameBytes)
        var filled = 0
        state.withLock { state in
            if state.start == nil { state.start = ContinuousClock.now }
        }
        while filled < samplesPerBuffer {
            if deviceQueue.isStopped || pcm.isClosed {
                pcm.close()
                return .success(nil)
            }
            let wanted = samplesPerBuffer - filled
            let read = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return alsa.pcmReadInterleaved(pcm.pointer, base + filled * frameBytes, UInt(wanted))
            }
            if read > 0 {
                filled += min(read, wanted)
                continue
            }
            let code = Int32(clamping: read)
            // ALSA reports errno values negated, not as -1 and errno, so POSIX's retryOnInterrupt does not
            // apply; a signal during the read or the wait (-EINTR) is retried here, not taken for a failure.
            if code == -EINTR { continue }
            if read == 0 || code == -EAGAIN {
                let waited = alsa.pcmWait(pcm.pointer, Self.waitInterval)
                if waited >= 0 || waited == -EINTR { continue }
                if let failure = recover(from: waited) { return .failure(failure) }
                filled = 0
                continue
            }
            if let failure = recover(from: code) { return .failure(failure) }
            filled = 0  // the samples read before the overrun are not contiguous with what follows
        }
        let pts: Int64 = state.withLock { state in
            let first = state.position
            state.position += Int64(samplesPerBuffer)
            return first
        }
        do {
            let buffer = try AudioBuffer(sampleRate: sampleRate, channelCount: channelCount, format: .int16,
                                         isInterleaved: true, channelData: [bytes])
            return .success(CapturedAudio(buffer: buffer, pts: MediaTime(value: pts, timescale: Int32(sampleRate))))
        } catch {
            return .failure(.audioCallFailed(device: device, call: "snd_pcm_readi", code: 0, message: error.description))
        }
    }

    /// Recovers from a read error: an overrun (`-EPIPE`) or suspend (`-ESTRPIPE`) is counted and recovered with
    /// `snd_pcm_recover`, and the position jumps to the wall clock; anything else closes the device.
    /// - Returns: `nil` when reading may go on, else the error to report.
    private func recover(from code: Int32) -> CaptureError? {
        let alsa = pcm.library
        let isOverrun = code == -EPIPE || code == -ESTRPIPE
        let recovered = alsa.pcmRecover(pcm.pointer, code, 1)
        guard isOverrun, recovered >= 0 else {
            let failure = CaptureError.audioCallFailed(device: device, call: "snd_pcm_readi", code: code, message: alsa.message(code))
            deviceQueue.requestStop()
            pcm.close()
            return failure
        }
        _ = alsa.pcmStart(pcm.pointer)
        let rate = Int64(sampleRate)
        state.withLock { state in
            state.overruns += 1
            guard let start = state.start else { return }
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            let elapsed = seconds * rate + attoseconds / 1_000_000_000 * rate / 1_000_000_000
            state.position = max(state.position, elapsed)
        }
        return nil
    }
}

extension ALSAMicrophone: CustomStringConvertible {
    /// The microphone's ``name``.
    public var description: String { name }
}

/// An open `snd_pcm_t`, closed exactly once (by ``close()`` or on release).
private final class PCMHandle {
    let pointer: OpaquePointer
    let library: ALSALibrary
    private(set) var isClosed = false

    init(pointer: OpaquePointer, library: ALSALibrary) {
        self.pointer = pointer
        self.library = library
    }

    deinit {
        close()
    }

    /// `snd_pcm_close`, once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = library.pcmClose(pointer)
    }
}

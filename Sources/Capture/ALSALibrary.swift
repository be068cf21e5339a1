#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ALSA functions the microphone needs, looked up at run time with `dlopen`/`dlsym` so StreamKit has no
/// link-time dependency on libasound: where the library is missing, opening a microphone fails with
/// ``CaptureError/libraryUnavailable(library:reason:)`` instead of the program failing to start.
///
/// Signatures follow alsa-lib's `<alsa/pcm.h>` (`snd_pcm_t *` and `snd_pcm_hw_params_t *` are opaque;
/// `snd_pcm_uframes_t` is `unsigned long`, `snd_pcm_sframes_t` is `long`; enums are `int`).
final class ALSALibrary: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; ALSA's functions may be called from any thread
    // as long as one PCM handle is not used by two threads at once, which ALSAMicrophone guarantees.

    typealias Open = @convention(c) (UnsafeMutablePointer<OpaquePointer?>, UnsafePointer<CChar>, Int32, Int32) -> Int32
    typealias Handle = @convention(c) (OpaquePointer) -> Int32
    typealias ParametersAllocate = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
    typealias ParametersFree = @convention(c) (OpaquePointer) -> Void
    typealias ParametersApply = @convention(c) (OpaquePointer, OpaquePointer) -> Int32
    typealias ParametersSetInt = @convention(c) (OpaquePointer, OpaquePointer, Int32) -> Int32
    typealias ParametersSetUnsigned = @convention(c) (OpaquePointer, OpaquePointer, UInt32) -> Int32
    typealias ParametersSetRateNear = @convention(c) (OpaquePointer, OpaquePointer, UnsafeMutablePointer<UInt32>,
                                                      UnsafeMutablePointer<Int32>?) -> Int32
    typealias ParametersSetPeriodNear = @convention(c) (OpaquePointer, OpaquePointer, UnsafeMutablePointer<UInt>,
                                                        UnsafeMutablePointer<Int32>?) -> Int32
    typealias ParametersSetBufferNear = @convention(c) (OpaquePointer, OpaquePointer, UnsafeMutablePointer<UInt>) -> Int32
    typealias Wait = @convention(c) (OpaquePointer, Int32) -> Int32
    typealias ReadInterleaved = @convention(c) (OpaquePointer, UnsafeMutableRawPointer, UInt) -> Int
    typealias Recover = @convention(c) (OpaquePointer, Int32, Int32) -> Int32
    typealias ErrorText = @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// `SND_PCM_STREAM_CAPTURE`.
    static let streamCapture: Int32 = 1
    /// `SND_PCM_NONBLOCK`.
    static let modeNonBlocking: Int32 = 1
    /// `SND_PCM_ACCESS_RW_INTERLEAVED`.
    static let accessReadWriteInterleaved: Int32 = 3
    /// `SND_PCM_FORMAT_S16_LE`.
    static let formatS16LittleEndian: Int32 = 2

    /// The name the library was loaded by.
    let name: String
    let pcmOpen: Open
    let pcmClose: Handle
    let pcmPrepare: Handle
    let pcmStart: Handle
    let pcmWait: Wait
    let pcmReadInterleaved: ReadInterleaved
    let pcmRecover: Recover
    let parametersMalloc: ParametersAllocate
    let parametersFree: ParametersFree
    let parametersAny: ParametersApply
    let parametersApply: ParametersApply
    let parametersSetAccess: ParametersSetInt
    let parametersSetFormat: ParametersSetInt
    let parametersSetChannels: ParametersSetUnsigned
    let parametersSetRateNear: ParametersSetRateNear
    let parametersSetPeriodSizeNear: ParametersSetPeriodNear
    let parametersSetBufferSizeNear: ParametersSetBufferNear
    let errorText: ErrorText
    private let handle: UnsafeMutableRawPointer

    /// Loads the library and every function the microphone uses.
    /// - Parameter name: the library's file name or path (`libasound.so.2`).
    /// - Throws: ``CaptureError/libraryUnavailable(library:reason:)`` with `dlerror()`'s text, or
    ///   ``CaptureError/symbolMissing(library:symbol:)``.
    init(name: String = "libasound.so.2") throws(CaptureError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw .libraryUnavailable(library: name, reason: reason)
        }
        var succeeded = false
        defer { if !succeeded { dlclose(handle) } }
        func symbol<Function>(_ symbolName: String, as type: Function.Type) throws(CaptureError) -> Function {
            guard let address = dlsym(handle, symbolName) else {
                throw .symbolMissing(library: name, symbol: symbolName)
            }
            return unsafeBitCast(address, to: type)
        }
        self.name = name
        self.handle = handle
        pcmOpen = try symbol("snd_pcm_open", as: Open.self)
        pcmClose = try symbol("snd_pcm_close", as: Handle.self)
        pcmPrepare = try symbol("snd_pcm_prepare", as: Handle.self)
        pcmStart = try symbol("snd_pcm_start", as: Handle.self)
        pcmWait = try symbol("snd_pcm_wait", as: Wait.self)
        pcmReadInterleaved = try symbol("snd_pcm_readi", as: ReadInterleaved.self)
        pcmRecover = try symbol("snd_pcm_recover", as: Recover.self)
        parametersMalloc = try symbol("snd_pcm_hw_params_malloc", as: ParametersAllocate.self)
        parametersFree = try symbol("snd_pcm_hw_params_free", as: ParametersFree.self)
        parametersAny = try symbol("snd_pcm_hw_params_any", as: ParametersApply.self)
        parametersApply = try symbol("snd_pcm_hw_params", as: ParametersApply.self)
        parametersSetAccess = try symbol("snd_pcm_hw_params_set_access", as: ParametersSetInt.self)
        parametersSetFormat = try symbol("snd_pcm_hw_params_set_format", as: ParametersSetInt.self)
        parametersSetChannels = try symbol("snd_pcm_hw_params_set_channels", as: ParametersSetUnsigned.self)
        parametersSetRateNear = try symbol("snd_pcm_hw_params_set_rate_near", as: ParametersSetRateNear.self)
        parametersSetPeriodSizeNear = try symbol("snd_pcm_hw_params_set_period_size_near", as: ParametersSetPeriodNear.self)
        parametersSetBufferSizeNear = try symbol("snd_pcm_hw_params_set_buffer_size_near", as: ParametersSetBufferNear.self)
        errorText = try symbol("snd_strerror", as: ErrorText.self)
        succeeded = true
    }

    deinit {
        dlclose(handle)
    }

    /// ALSA's text for a negative error code (`snd_strerror`).
    /// - Parameter code: a negative ALSA/errno code.
    /// - Returns: the text, for example "No such file or directory".
    func message(_ code: Int32) -> String {
        errorText(code).map { String(cString: $0) } ?? "ALSA error \(code)"
    }
}

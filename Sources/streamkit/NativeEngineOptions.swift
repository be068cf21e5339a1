import Codecs
import Containers
import MediaCore
import NativeH264
import Synchronization

/// The option of the native H.264 engine on `encode`, its reconstruction, and the registry that carries it
/// (`--threads` is ``EncodingOptions/threads``, a session property every engine takes).
enum NativeEngineOptions {
    /// `--recon PATH`.
    static let reconstruction = OptionSpec("--recon", value: "PATH",
                                           help: "also write the native encoder's own reconstructed frames (a .y4m; needs --engine native)",
                                           parse: OptionValueParsers.text)

    /// Whether an H.264 session with this engine choice gets the native engine: named so, or the
    /// registry's first H.264 encoder (a build without FFmpeg).
    /// - Parameters:
    ///   - engineName: `--engine NAME`, if given.
    ///   - preference: the kind of engine `--engine` allows.
    /// - Returns: whether the native engine encodes.
    static func choosesNative(engineName: String?, preference: EnginePreference) -> Bool {
        if let engineName { return engineName == "native" }
        var probe = CompressionConfiguration(codec: .h264, width: 16, height: 16)
        probe.enginePreference = preference
        return (try? CodecEngineRegistry.default.encoderEngine(for: probe).name) == "native"
    }

    /// The default registry with its native engine handing its reconstructions to `reconstruction`.
    /// - Parameter reconstruction: the `--recon` file, if given.
    /// - Returns: the registry.
    static func registry(reconstruction: ReconstructionFile?) -> CodecEngineRegistry {
        let registry = EngineSetup.registry()
        guard reconstruction != nil else { return registry }
        var handler: NativeCodecEngine.ReconstructionHandler?
        if let reconstruction {
            handler = { @Sendable picture, _ in reconstruction.write(picture) }
        }
        return registry.replacingNativeEngine(with: NativeCodecEngine(reconstructionHandler: handler))
    }
}

/// The `.y4m` file `--recon` writes, fed from the session's worker thread.
final class ReconstructionFile: Sendable {
    private struct State {
        var writer: Y4MWriter<FileByteSink>?
        var failure: ContainerWriteError?
    }
    private let state: Mutex<State>
    /// Where it goes.
    let path: String

    /// Creates the file and writes its header.
    /// - Parameters:
    ///   - path: the `.y4m` path.
    ///   - width: the picture width.
    ///   - height: the picture height.
    ///   - framesPerSecond: the frame rate written in the header.
    /// - Throws: ``ContainerWriteError`` when the file cannot be created.
    init(path: String, width: Int, height: Int, framesPerSecond: Int) throws(ContainerWriteError) {
        let writer = try Y4MWriter(path: path, header: Y4MHeader(width: width, height: height, frameRate: Y4MRatio(framesPerSecond, 1)))
        state = Mutex(State(writer: writer))
        self.path = path
    }

    /// Appends a picture (a failure is kept for ``finish()``).
    /// - Parameter picture: the reconstruction.
    func write(_ picture: PixelBuffer) {
        state.withLock { state in
            guard state.failure == nil else { return }
            do throws(ContainerWriteError) { try state.writer?.write(picture) } catch { state.failure = error }
        }
    }

    /// Closes the file.
    /// - Throws: the first write failure, or the close's.
    func finish() throws(ContainerWriteError) {
        let failure: ContainerWriteError? = state.withLock { state in
            defer { state.writer = nil }
            if let failure = state.failure { return failure }
            do throws(ContainerWriteError) { try state.writer?.finish() } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }
}

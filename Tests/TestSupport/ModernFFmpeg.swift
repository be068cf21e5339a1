import Foundation

/// The modern FFmpeg (PyPI's `imageio-ffmpeg`, a static FFmpeg 9 build) that has the encoders Debian's
/// FFmpeg lacks: libopenh264 and libkvazaar. `scripts/install-dependencies.sh` installs it into a
/// virtual environment at `.build/peers-venv`; env `STREAMKIT_MODERN_FFMPEG` may name the binary instead.
///
/// It has no ffprobe: the tests read its streams with Debian's.
///
/// Where `CI=true`, a missing binary is a failure, never a skip: ``isRunnable`` then returns `true` and
/// ``path()`` throws.
public enum ModernFFmpeg {
    /// The environment variable that names the binary.
    public static let environmentVariable = "STREAMKIT_MODERN_FFMPEG"

    /// The virtual environment `scripts/install-dependencies.sh` makes, inside the package's build folder.
    public static var virtualEnvironment: URL {
        MediaFiles.packageRoot.appendingPathComponent(".build/peers-venv")
    }

    /// The binary's path: `STREAMKIT_MODERN_FFMPEG`, else the one imageio-ffmpeg keeps in the virtual
    /// environment; `nil` if neither is there.
    public static let installedPath: String? = {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return FileManager.default.isExecutableFile(atPath: named) ? named : nil
        }
        let library = virtualEnvironment.appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? []
        for python in versions.sorted() where python.hasPrefix("python") {
            let binaries = library.appendingPathComponent("\(python)/site-packages/imageio_ffmpeg/binaries")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: binaries.path)) ?? []
            for name in names.sorted() where name.hasPrefix("ffmpeg") {
                let candidate = binaries.appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Whether tests that need the modern FFmpeg should run: it is installed, or we are in CI (where a
    /// missing binary must fail the test instead of skipping it).
    public static var isRunnable: Bool { ExternalTool.isCI || installedPath != nil }

    /// The binary's path.
    /// - Returns: the path of the modern `ffmpeg`.
    /// - Throws: ``ExternalTool/Failure`` saying how to install it, if it is missing.
    public static func path() throws -> String {
        guard let installedPath else {
            throw ExternalTool.Failure(command: "modern ffmpeg",
                                       message: "not found: run scripts/install-dependencies.sh (it installs imageio-ffmpeg into "
                                           + "\(virtualEnvironment.path)) or set \(environmentVariable) to an ffmpeg with libopenh264 and libkvazaar")
        }
        return installedPath
    }

    /// Runs the modern FFmpeg and throws unless it exits with 0.
    /// - Parameter arguments: its arguments.
    /// - Returns: its output.
    /// - Throws: ``ExternalTool/Failure`` if it is missing or fails.
    @discardableResult
    public static func check(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.check(try path(), arguments)
    }

    /// Runs the modern ffmpeg on a thread of its own (``OffPool``) and throws unless it exits with 0.
    /// - Parameter arguments: its arguments.
    /// - Returns: its output.
    /// - Throws: ``ExternalTool/Failure`` if it is missing or fails.
    @discardableResult
    public static func check(_ arguments: [String]) async throws -> ExternalTool.Output {
        try await OffPool.run { try check(arguments) }
    }

    /// Encodes `testsrc2` with one of the modern FFmpeg's encoders into a file.
    /// - Parameters:
    ///   - encoder: the encoder and its options, for example `["-c:v", "libopenh264", "-slices", "4"]`.
    ///   - output: the output file; its extension picks the raw format (`.264`, `.265`).
    ///   - size: the picture size.
    ///   - frames: how many frames.
    /// - Throws: ``ExternalTool/Failure`` if the binary is missing or the encode fails.
    public static func encodeTestPattern(_ encoder: [String], to output: String, size: String = "320x240", frames: Int = 40) throws {
        try check(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-frames:v", "\(frames)",
                   "-pix_fmt", "yuv420p"] + encoder + [output])
    }
}

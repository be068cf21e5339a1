import Foundation

/// The Python of the peers' virtual environment (`.build/peers-venv`, where `scripts/install-dependencies.sh`
/// installs aiortc, which pulls aioice, and requests): the WebRTC, STUN/ICE and HTTP peers nobody here wrote.
/// Env `STREAMKIT_PEERS_PYTHON` may name another interpreter. Where `CI=true`, a missing module is a failure.
public enum PythonPeers {
    /// The environment variable that names the interpreter.
    public static let environmentVariable = "STREAMKIT_PEERS_PYTHON"

    /// The interpreter's path.
    public static var python: String {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty { return named }
        return ModernFFmpeg.virtualEnvironment.appendingPathComponent("bin/python").path
    }

    /// Whether the interpreter can import every module named (or we are in CI, where a missing one must fail).
    /// - Parameter modules: module names, for example `aioice`.
    /// - Returns: whether tests needing them should run.
    public static func isRunnable(_ modules: String...) -> Bool {
        if ExternalTool.isCI { return true }
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let output = try? ExternalTool.run(python, ["-c", modules.map { "import \($0)" }.joined(separator: "; ")])
        return output?.status == 0
    }

    /// Runs a script with the interpreter and returns its standard output; fails unless it exits with 0.
    /// - Parameters:
    ///   - script: the Python source.
    ///   - arguments: its `sys.argv[1...]`.
    ///   - input: its standard input.
    ///   - seconds: the longest it may run (then `timeout` ends it, and this throws).
    /// - Returns: its output.
    /// - Throws: ``ExternalTool/Failure`` with its standard error.
    public static func run(_ script: String, _ arguments: [String] = [], input: Data? = nil, seconds: Int = 60) async throws -> String {
        let output = try await ExternalTool.run("timeout", ["-k", "5", String(seconds), python, "-c", script] + arguments, input: input)
        guard output.status == 0 else {
            throw ExternalTool.Failure(command: "python", message: "exit \(output.status): \(output.standardError.suffix(2000))")
        }
        return output.text
    }
}

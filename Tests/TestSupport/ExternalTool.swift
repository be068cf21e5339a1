import Foundation

/// Runs the real tools the tests use as oracles (ffmpeg, ffprobe, x264, x265).
///
/// Where `CI=true`, a missing tool is a failure, never a skip: ``isRunnable(_:)`` then returns `true`
/// so the test runs and fails loudly on the missing binary.
public enum ExternalTool {
    /// What a finished tool run produced.
    public struct Output: Sendable {
        /// Everything written to standard output.
        public var standardOutput: Data
        /// Everything written to standard error, as text.
        public var standardError: String
        /// The exit status.
        public var status: Int32
        /// Standard output as UTF-8 text.
        public var text: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// A tool run that failed.
    public struct Failure: Error, CustomStringConvertible {
        /// The command line.
        public var command: String
        /// What went wrong.
        public var message: String
        /// A one-line description.
        public var description: String { "\(command): \(message)" }
    }

    /// Whether the test suite runs in CI (`CI=true`), where every oracle must be present.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The full path of a tool on `PATH`, if it is installed.
    /// - Parameter name: the tool's name, for example `ffprobe`.
    /// - Returns: its path, or `nil`.
    public static func path(of name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in paths {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether tests that need these tools should run: they are installed, or we are in CI (where a
    /// missing tool must fail the run instead of skipping).
    /// - Parameter names: the tools.
    /// - Returns: `true` if the tests should run.
    public static func isRunnable(_ names: String...) -> Bool {
        isCI || names.allSatisfy { path(of: $0) != nil }
    }

    /// Runs a tool to completion.
    /// - Parameters:
    ///   - name: the tool, looked up on `PATH` (or a path containing "/").
    ///   - arguments: its arguments.
    ///   - input: bytes for its standard input, if any.
    /// - Returns: its output; a non-zero exit is returned, not thrown.
    /// - Throws: ``Failure`` if the tool is not installed or cannot start.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], input: Data? = nil) throws -> Output {
        let command = ([name] + arguments).joined(separator: " ")
        guard let executable = name.contains("/") ? name : path(of: name) else {
            throw Failure(command: command, message: "\(name) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("sk-out-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent("sk-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        var inputURL: URL?
        if let input {
            let url = directory.appendingPathComponent("sk-in-\(UUID().uuidString)")
            try input.write(to: url)
            process.standardInput = try FileHandle(forReadingFrom: url)
            inputURL = url
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        defer { if let inputURL { try? FileManager.default.removeItem(at: inputURL) } }
        do { try process.run() } catch { throw Failure(command: command, message: "cannot start: \(error)") }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Output(standardOutput: try Data(contentsOf: outURL),
                      standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                      status: process.terminationStatus)
    }

    /// Runs a tool to completion on a thread of its own (``OffPool``): an async test waits for it without holding
    /// a thread of the cooperative pool.
    /// - Parameters:
    ///   - name: the tool, looked up on `PATH` (or a path containing "/").
    ///   - arguments: its arguments.
    ///   - input: bytes for its standard input, if any.
    /// - Returns: its output; a non-zero exit is returned, not thrown.
    /// - Throws: ``Failure`` if the tool is not installed or cannot start.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], input: Data? = nil) async throws -> Output {
        try await OffPool.run { try run(name, arguments, input: input) }
    }

    /// Runs a tool on a thread of its own (``OffPool``) and throws unless it exits with 0.
    /// - Parameters:
    ///   - name: the tool, looked up on `PATH`.
    ///   - arguments: its arguments.
    /// - Returns: its output.
    /// - Throws: ``Failure`` with its standard error if it fails.
    @discardableResult
    public static func check(_ name: String, _ arguments: [String]) async throws -> Output {
        try await OffPool.run { try check(name, arguments) }
    }

    /// Runs a tool and throws unless it exits with 0.
    /// - Parameters:
    ///   - name: the tool, looked up on `PATH`.
    ///   - arguments: its arguments.
    /// - Returns: its output.
    /// - Throws: ``Failure`` with its standard error if it fails.
    @discardableResult
    public static func check(_ name: String, _ arguments: [String]) throws -> Output {
        let output = try run(name, arguments)
        guard output.status == 0 else {
            throw Failure(command: ([name] + arguments).joined(separator: " "),
                          message: "exit \(output.status): \(output.standardError.suffix(800))")
        }
        return output
    }

    /// A fresh temporary directory for one test, inside the process's scratch folder (``TestScratch``).
    /// - Returns: its URL; the test may leave files in it: the folder goes when the test process exits.
    public static func temporaryDirectory() throws -> URL {
        let url = TestScratch.root.appendingPathComponent("test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension ExternalTool {
    /// The path of an executable this package builds (for example `streamkit`), found beside the test
    /// bundle in the build folder `swift test` uses.
    /// - Parameter product: the executable product's name.
    /// - Returns: its path.
    /// - Throws: ``Failure`` if it has not been built.
    public static func builtProduct(_ product: String) throws -> String {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [runner.deletingLastPathComponent().appendingPathComponent(product).path]
        // The runner may be inside a bundle directory (…/X.xctest/Contents/MacOS/X on Apple platforms).
        var directory = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent(product).path)
        }
        candidates.append(MediaFiles.packageRoot.appendingPathComponent(".build/debug/\(product)").path)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(command: product, message: "not built (looked in \(candidates.joined(separator: ", ")))")
        }
        return found
    }

    /// Runs an executable this package builds.
    /// - Parameters:
    ///   - product: the executable product's name.
    ///   - arguments: its arguments.
    /// - Returns: its output; a non-zero exit is returned, not thrown.
    /// - Throws: ``Failure`` if it is not built.
    @discardableResult
    public static func runProduct(_ product: String, _ arguments: [String]) throws -> Output {
        try run(builtProduct(product), arguments)
    }

    /// Runs an executable this package builds, on a thread of its own (``OffPool``).
    /// - Parameters:
    ///   - product: the executable product's name.
    ///   - arguments: its arguments.
    /// - Returns: its output; a non-zero exit is returned, not thrown.
    /// - Throws: ``Failure`` if it is not built.
    @discardableResult
    public static func runProduct(_ product: String, _ arguments: [String]) async throws -> Output {
        try await OffPool.run { try runProduct(product, arguments) }
    }
}

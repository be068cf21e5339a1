import Foundation

/// The folder every temporary directory of one test process lives in (`TMPDIR/streamkit-tests-PID-UUID`), removed
/// when the process exits, so a run leaves nothing behind (a crashed run leaves its one folder).
enum TestScratch {
    /// The process's folder, created on first use, with its removal registered for exit.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("streamkit-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()
}

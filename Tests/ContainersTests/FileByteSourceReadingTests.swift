import Containers
import Foundation
import POSIX
import Testing
import TestSupport

/// Reading a whole file or a pipe through ``FileByteSource`` (what `inspect` and `decode` do), and the
/// errors a bad path gives at open.
@Suite struct FileByteSourceReadingTests {
    @Test("read(upToCount:) and readToEnd() give the file's bytes, from a file and from a pipe")
    func readsEverything() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bytes.bin").path
        let bytes = (0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let file = try FileByteSource(path: path)
        #expect(try file.read(upToCount: 10) == Array(bytes[0..<10]))
        #expect(file.remainingByteCount == bytes.count - 10)
        #expect(try file.readToEnd() == Array(bytes[10...]))
        #expect(try file.read(upToCount: 10) == [], "at the end")
        try file.close()

        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(bytes))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let source = FileByteSource(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, label: "<pipe>")
        #expect(source.remainingByteCount == nil)
        #expect(try source.readToEnd(chunkSize: 65_536) == bytes)
        try source.close()
    }

    @Test("a /proc file, whose size says 0, is still read to its end")
    func procFiles() throws {
        let source = try FileByteSource(path: "/proc/self/status")
        defer { try? source.close() }
        #expect(source.remainingByteCount == 0)
        let text = String(decoding: try source.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(text.contains("\nPid:"))
    }

    @Test("a directory fails at open with EISDIR, a missing file with ENOENT, each naming the path")
    func badPaths() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ContainerIOError(operation: .open, path: directory.path, code: EISDIR)) {
            try FileByteSource(path: directory.path)
        }
        let missing = directory.appendingPathComponent("missing.h264").path
        let error = #expect(throws: ContainerIOError.self) { try FileByteSource(path: missing) }
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.description == "cannot open \(missing): No such file or directory (errno 2)")
    }

    @Test("a source closed twice is quiet; a read after close is EBADF")
    func closeTwice() throws {
        let source = try FileByteSource(path: "/dev/zero")
        try source.close()
        try source.close()
        #expect(throws: ContainerIOError(operation: .read, path: "/dev/zero", code: EBADF)) { try source.read(upToCount: 1) }
    }
}

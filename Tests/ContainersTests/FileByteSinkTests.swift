import Containers
import Foundation
import Testing
import TestSupport

/// The buffered file sink and the file source: what reaches the disk, patching, and errors.
@Suite("FileByteSink and FileByteSource")
struct FileByteSinkTests {
    @Test("small and large writes, patches inside and outside the buffer")
    func writesAndPatches() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sink.bin").path
        let sink = try FileByteSink(path: path, bufferCapacity: 8)
        var expected: [UInt8] = []
        for chunk in [[UInt8](1...5), [6, 7, 8, 9], [UInt8](10...40), [41]] {
            try sink.write(chunk)
            expected += chunk
        }
        #expect(sink.byteCount == 41)
        try sink.overwrite([0xAA, 0xBB], at: 1)    // already on disk: pwrite
        try sink.overwrite([0xCC], at: 40)         // still buffered
        expected[1] = 0xAA
        expected[2] = 0xBB
        expected[40] = 0xCC
        #expect(throws: ContainerIOError(operation: .overwrite, path: path, code: EINVAL)) { try sink.overwrite([1, 2], at: 40) }
        try sink.close()
        try sink.close()
        #expect(throws: ContainerIOError(operation: .write, path: path, code: EBADF)) { try sink.write([1]) }
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == expected)

        let source = try FileByteSource(path: path)
        #expect(source.remainingByteCount == 41)
        var buffer = [UInt8](repeating: 0, count: 100)
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        #expect(Array(buffer.prefix(count)) == expected)
        try source.close()
        #expect(throws: ContainerIOError(operation: .read, path: path, code: EBADF)) {
            try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        }
    }

    @Test("opening fails with the path and errno")
    func openFailures() {
        #expect(throws: ContainerIOError(operation: .open, path: "/nonexistent/dir/x", code: ENOENT)) {
            try FileByteSink(path: "/nonexistent/dir/x")
        }
        #expect(throws: ContainerIOError(operation: .open, path: "/nonexistent/x", code: ENOENT)) {
            try FileByteSource(path: "/nonexistent/x")
        }
        #expect(ContainerIOError(operation: .open, path: "/x", code: ENOENT).description == "cannot open /x: No such file or directory (errno 2)")
    }

    @Test("a memory sink patches and refuses ranges never written")
    func memorySink() throws {
        var sink = MemoryByteSink()
        try sink.write([1, 2, 3])
        try sink.overwrite([9], at: 2)
        #expect(sink.bytes == [1, 2, 9])
        #expect(throws: ContainerIOError(operation: .overwrite, path: "<memory>", code: EINVAL)) { try sink.overwrite([9], at: 3) }
        sink.close()
        #expect(throws: ContainerIOError(operation: .write, path: "<memory>", code: EBADF)) { try sink.write([1]) }
    }
}

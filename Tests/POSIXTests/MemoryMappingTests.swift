import Glibc
import POSIX
import Testing

/// ``MemoryMapping``: a file's bytes are seen as they are on disk, and every kind of bad path is a ``SystemError``.
@Suite struct MemoryMappingTests {
    @Test("a mapped file reads back exactly the bytes written to it, across a page boundary")
    func mapsTheFileBytes() throws {
        let path = Fixture.temporaryFile("mmap")
        defer { unlink(path) }
        let written = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let file = try FileDescriptor.open(path, .writeOnly, options: [.truncate])
        try written.withUnsafeBytes { try file.writeAll($0) }
        try file.close()

        let mapping = try MemoryMapping(readingFileAt: path)
        #expect(mapping.bytes.count == written.count)
        #expect(Array(mapping.bytes) == written)
    }

    @Test("an empty file maps to no bytes")
    func emptyFile() throws {
        let path = Fixture.temporaryFile("mmap-empty")
        defer { unlink(path) }
        let mapping = try MemoryMapping(readingFileAt: path)
        #expect(mapping.bytes.isEmpty)
    }

    @Test("a missing file fails in open, a directory with EISDIR, a device with EINVAL")
    func badPaths() {
        #expect(throws: SystemError("open", errno: Errno(ENOENT), subject: "/nonexistent/streamkit")) {
            _ = try MemoryMapping(readingFileAt: "/nonexistent/streamkit")
        }
        #expect(throws: SystemError("mmap", errno: .isADirectory, subject: "/tmp")) {
            _ = try MemoryMapping(readingFileAt: "/tmp")
        }
        #expect(throws: SystemError("mmap", errno: .invalidArgument, subject: "/dev/null")) {
            _ = try MemoryMapping(readingFileAt: "/dev/null")
        }
    }
}

import Glibc
import POSIX
import Synchronization
import Testing

/// Ownership and I/O of ``FileDescriptor``, checked against what the kernel says (`fcntl`, `/proc/self/fd`).
@Suite struct FileDescriptorTests {
    @Test("close releases the number; a second close is EBADF and leaves a reused number open")
    func closingTwiceIsAnErrorNotADoubleClose() throws {
        let path = Fixture.temporaryFile()
        defer { unlink(path) }
        let descriptor = try FileDescriptor.open(path, .readOnly)
        let number = descriptor.rawValue
        #expect(fcntl(number, F_GETFD) & FD_CLOEXEC != 0, "O_CLOEXEC is always set")
        try descriptor.close()
        #expect(descriptor.isClosed)
        #expect(Fixture.isClosed(number, openOn: path))

        // Whatever is opened next may get the same number: the second close must not touch it.
        let other = try FileDescriptor.open("/dev/null", .readOnly)
        defer { try? other.close() }
        #expect(throws: SystemError("close", errno: .badFileDescriptor, subject: path)) { try descriptor.close() }
        #expect(fcntl(other.rawValue, F_GETFD) != -1, "the later descriptor is still open")
        #expect(Fixture.target(ofDescriptor: other.rawValue) == "/dev/null")
    }

    @Test("a descriptor nobody closed is closed when the last reference goes")
    func deinitializationCloses() throws {
        let path = Fixture.temporaryFile()
        defer { unlink(path) }
        func openAndForget() throws -> Int32 {
            let descriptor = try FileDescriptor.open(path, .readOnly)
            #expect(Fixture.target(ofDescriptor: descriptor.rawValue) == path)
            return descriptor.rawValue
        }
        let number = try openAndForget()
        #expect(Fixture.isClosed(number, openOn: path))
    }

    @Test("a borrowed descriptor is never closed by the object")
    func borrowedDescriptorsStayOpen() throws {
        let raw = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(raw >= 0)
        defer { Glibc.close(raw) }
        do {
            let borrowed = FileDescriptor(borrowing: raw, label: "<null>")
            try borrowed.close()
            #expect(throws: SystemError("read", errno: .badFileDescriptor, subject: "<null>")) {
                var byte: UInt8 = 0
                _ = try withUnsafeMutableBytes(of: &byte) { try borrowed.read(into: $0) }
            }
        }
        #expect(fcntl(raw, F_GETFD) != -1)
    }

    @Test("opening a missing file names the path and the errno text")
    func openingAMissingFile() throws {
        let path = "/nonexistent-streamkit/x.h264"
        let error = #expect(throws: SystemError.self) { try FileDescriptor.open(path, .readOnly) }
        #expect(error == SystemError("open", errno: .noSuchFileOrDirectory, subject: path))
        #expect(error?.description == "cannot open /nonexistent-streamkit/x.h264: No such file or directory")
    }

    @Test("exclusive create of an existing file is EEXIST; permissions apply to a created file")
    func createOptionsAndPermissions() throws {
        let path = Fixture.temporaryFile()
        defer { unlink(path) }
        #expect(throws: SystemError("open", errno: .fileExists, subject: path)) {
            try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate])
        }
        unlink(path)
        let previous = umask(0)
        defer { umask(previous) }
        let created = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate],
                                              permissions: [.ownerRead, .ownerWrite, .groupRead])
        try created.close()
        var info = stat()
        try #require(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640)
    }

    @Test("write, seek, read, pread and pwrite move (or keep) the position as POSIX says")
    func readWriteSeek() throws {
        let path = Fixture.temporaryFile()
        defer { unlink(path) }
        let file = try FileDescriptor.open(path, .readWrite, options: [.truncate])
        defer { try? file.close() }
        try Array("hello world".utf8).withUnsafeBytes { try file.writeAll($0) }
        #expect(try file.position() == 11)
        try Array("W".utf8).withUnsafeBytes { try file.writeAll($0, at: 6) }
        #expect(try file.position() == 11, "pwrite leaves the position")
        #expect(try file.seek(to: -5, from: .end) == 6)
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
        #expect(String(decoding: buffer.prefix(count), as: UTF8.self) == "World")
        #expect(try buffer.withUnsafeMutableBytes { try file.read(into: $0) } == 0, "end of file")
        let head = try buffer.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<5]), at: 0) }
        #expect(String(decoding: buffer.prefix(head), as: UTF8.self) == "hello")
        #expect(try file.status() == FileStatus(kind: .regular, size: 11))
    }

    @Test("a pipe cannot seek: ESPIPE; a directory reads as EISDIR")
    func pipesAndDirectories() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = FileDescriptor(adopting: ends[0], label: "<pipe>")
        let writer = FileDescriptor(adopting: ends[1], label: "<pipe>")
        #expect(throws: SystemError("lseek", errno: .illegalSeek, subject: "<pipe>")) { try reader.seek(to: 0) }
        #expect(try reader.status().kind == .fifo)
        try reader.close()
        try writer.close()

        let directory = try FileDescriptor.open("/tmp", .readOnly)
        defer { try? directory.close() }
        #expect(try directory.status().kind == .directory)
        #expect(throws: SystemError("read", errno: .isADirectory, subject: "/tmp")) {
            var byte: UInt8 = 0
            _ = try withUnsafeMutableBytes(of: &byte) { try directory.read(into: $0) }
        }
    }

    @Test("writeAll pushes 4 MiB through a 64 KiB pipe while another thread reads it")
    func writeAllThroughAPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = FileDescriptor(adopting: ends[0], label: "<pipe read>")
        let writer = FileDescriptor(adopting: ends[1], label: "<pipe write>")
        let bytes = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let received = Mutex<[UInt8]>([])
        let thread = try Fixture.startThread {
            var chunk = [UInt8](repeating: 0, count: 100_000)
            while let count = try? chunk.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 {
                received.withLock { $0 += chunk.prefix(count) }
            }
        }
        try bytes.withUnsafeBytes { try writer.writeAll($0) }
        try writer.close()
        pthread_join(thread, nil)
        try reader.close()
        #expect(received.withLock { $0 } == bytes)
    }

    @Test("non-blocking mode is switched with fcntl; an empty non-blocking pipe reads as EAGAIN")
    func nonBlockingMode() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = FileDescriptor(adopting: ends[0], label: "<pipe>")
        let writer = FileDescriptor(adopting: ends[1], label: "<pipe>")
        defer { try? reader.close(); try? writer.close() }
        #expect(try reader.isNonBlocking() == false)
        try reader.setNonBlocking(true)
        #expect(try reader.isNonBlocking())
        #expect(fcntl(reader.rawValue, F_GETFL) & O_NONBLOCK != 0)
        #expect(throws: SystemError("read", errno: .wouldBlock, subject: "<pipe>")) {
            var byte: UInt8 = 0
            _ = try withUnsafeMutableBytes(of: &byte) { try reader.read(into: $0) }
        }
        #expect(try reader.poll(for: .readable, timeout: .zero).isEmpty)
        try [UInt8(7)].withUnsafeBytes { try writer.writeAll($0) }
        #expect(try reader.poll(for: .readable, timeout: .seconds(5)).contains(.readable))
    }
}

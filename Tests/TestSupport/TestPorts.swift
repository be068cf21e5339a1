import Foundation
import Synchronization

/// Ports of a test's own, so that network suites can run at once — with each other, with a second `swift test` of
/// another checkout on the same machine, and with the peers (nginx, ffmpeg, GStreamer) they start.
///
/// Ports are handed out in blocks of ``blockSize``, from 20000 to 32759: below Linux's ephemeral range (32768 and
/// up, where the kernel picks the local ports of outgoing connections and of sockets bound to port 0), so that no
/// connection a test makes can take a port another test was given. A block is this process's while it holds an
/// exclusive `flock` on the block's file in `TMPDIR/streamkit-test-ports` (the kernel drops the lock when the
/// process ends, however it ends), and only if nothing listens on or is bound to any of its ports on 127.0.0.1 and
/// ::1, over TCP and UDP, when it is taken. Where a test's own code is the server, binding port 0 and reading the
/// port back is simpler still; these blocks are for peers that must be told their port up front.
public enum TestPorts {
    /// The ports in one block; a reservation takes whole blocks.
    public static let blockSize = 10

    /// The first port handed out.
    private static let firstPort = 20_000
    /// The number of blocks between ``firstPort`` and 32767.
    private static let blockCount = (32_768 - firstPort) / blockSize

    /// The next block to try (an index from ``firstPort``); it starts at a random block so that two test processes
    /// rarely even try the same ones.
    private static let nextBlock = Mutex(Int.random(in: 0..<blockCount))

    /// The lock files' folder.
    private static let lockDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("streamkit-test-ports")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Reserves `count` consecutive ports for the rest of this process.
    /// - Parameter count: how many (RTP and RTCP pairs: the first port is always even, a multiple of 10).
    /// - Returns: the first port.
    public static func reserve(_ count: Int = 1) -> UInt16 {
        let blocks = max(1, (count + blockSize - 1) / blockSize)
        return nextBlock.withLock { next in
            for _ in 0..<blockCount {
                let first = next
                next = (next + blocks) % blockCount
                guard first + blocks <= blockCount else { continue }
                if let port = claim(blocks: first..<(first + blocks)) { return port }
            }
            // Every block is taken: a machine running a dozen suites at once. Fail where the port is used.
            return 0
        }
    }

    /// Locks the blocks' files and checks that their ports are free.
    /// - Parameter blocks: block indices.
    /// - Returns: the first port, or `nil` if another process holds a block or a port is in use (the locks taken
    ///   here are then released).
    private static func claim(blocks: Range<Int>) -> UInt16? {
        var descriptors: [Int32] = []
        for block in blocks {
            let path = lockDirectory.appendingPathComponent("block-\(firstPort + block * blockSize)").path
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { break }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                break
            }
            descriptors.append(descriptor)
        }
        let first = firstPort + blocks.lowerBound * blockSize
        let ports = first..<(firstPort + blocks.upperBound * blockSize)
        guard descriptors.count == blocks.count, ports.allSatisfy({ isFree(UInt16($0)) }) else {
            for descriptor in descriptors { close(descriptor) }
            return nil
        }
        // The descriptors stay open: the locks are held until the process ends.
        return UInt16(first)
    }

    /// Whether nothing is bound to `port` on 127.0.0.1 or ::1, over TCP or UDP.
    /// - Parameter port: the port.
    /// - Returns: `false` if any bind fails because the address is in use.
    static func isFree(_ port: UInt16) -> Bool {
        for family in [AF_INET, AF_INET6] {
            for type in [Int32(SOCK_STREAM.rawValue), Int32(SOCK_DGRAM.rawValue)] {
                if !canBind(port: port, family: family, type: type) { return false }
            }
        }
        return true
    }

    /// Binds a socket to the loopback address and `port` and closes it.
    /// - Returns: `false` only if the port is in use (a machine without IPv6 does not count against it).
    private static func canBind(port: UInt16, family: Int32, type: Int32) -> Bool {
        let descriptor = socket(family, type, 0)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        let result: Int32
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        return result == 0 || errno != EADDRINUSE
    }
}

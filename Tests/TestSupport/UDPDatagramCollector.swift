import Foundation
import Synchronization

/// Collects the datagrams that arrive on a port of 127.0.0.1, on a thread of its own, until stopped: the receiving
/// end of a peer's `udp://` output (srt-live-transmit, ffmpeg).
public final class UDPDatagramCollector: Sendable {
    private let descriptor: Int32
    private let collected = Mutex<[[UInt8]]>([])
    private let stopping = Atomic<Bool>(false)
    private let done = Mutex(false)

    /// Binds the port and starts collecting.
    /// - Parameter port: the UDP port on 127.0.0.1.
    /// - Throws: ``TestFailure`` when the socket cannot be made or bound.
    public init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw TestFailure("bind 127.0.0.1:\(port): errno \(errno)")
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !self.stopping.load(ordering: .relaxed) {
                let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 { self.collected.withLock { $0.append(Array(buffer.prefix(count))) } }
            }
            self.done.withLock { $0 = true }
        }
        thread.start()
    }

    /// Blocks until `count` datagrams have come or `seconds` have passed (call it off Swift's cooperative pool).
    /// - Returns: the datagrams so far.
    public func waitFor(count: Int, seconds: Double) -> [[UInt8]] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while collected.withLock({ $0.count }) < count, ContinuousClock.now < deadline { usleep(10_000) }
        return collected.withLock { $0 }
    }

    /// Stops collecting.
    /// - Returns: what came.
    public func stop() -> [[UInt8]] {
        stopping.store(true, ordering: .relaxed)
        for _ in 0..<50 where !done.withLock({ $0 }) { usleep(10_000) }
        return collected.withLock { $0 }
    }

    deinit {
        stopping.store(true, ordering: .relaxed)
        for _ in 0..<50 where !done.withLock({ $0 }) { usleep(10_000) }
        close(descriptor)
    }
}

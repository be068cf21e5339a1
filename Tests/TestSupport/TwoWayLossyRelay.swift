import Foundation
import Synchronization

/// A UDP relay on 127.0.0.1 that damages both directions the way a bad network does: it drops a share of the
/// datagrams and holds some back behind the next one (reordering), deterministically from a seed. A caller sends to
/// ``port``; the relay forwards to the server's port from a socket of its own and sends the server's answers back to
/// the caller — so a connection-oriented UDP protocol (SRT: handshake, data, acknowledgements, NAKs) runs through it.
///
/// The direction towards the server can also be a bottleneck (``setRateCap(bytesPerSecond:)``): datagrams leave at that
/// rate from a queue that holds a tenth of a second of it, and what does not fit is dropped — a router's tail drop.
public final class TwoWayLossyRelay: Sendable {
    /// What happened to the datagrams, per direction.
    public struct Counts: Sendable {
        /// Datagrams from the caller, and of them those dropped; SRT data packets (first bit 0) dropped.
        public var forward = 0, forwardDropped = 0, forwardDataDropped = 0
        /// Datagrams from the server, and of them those dropped.
        public var backward = 0, backwardDropped = 0
        /// Datagrams sent after their successor.
        public var reordered = 0
        /// Datagrams towards the server dropped because the bottleneck's queue was full.
        public var forwardQueueDropped = 0
    }

    /// The port callers send to.
    public let port: UInt16
    private let outside: Int32
    private let inside: Int32
    private let stopping = Atomic<Bool>(false)
    private let counts = Mutex(Counts())
    private let done = Mutex(false)
    private let rateCap = Atomic<Int>(0)

    /// Starts relaying.
    /// - Parameters:
    ///   - port: where callers send.
    ///   - server: the server's port on 127.0.0.1.
    ///   - loss: the share dropped in each direction.
    ///   - reorder: the share held back behind the next datagram.
    ///   - seed: the damage pattern's seed.
    public init(port: UInt16, server: UInt16, loss: Double, reorder: Double, seed: UInt64 = 11) throws {
        self.port = port
        outside = try Self.bound(port: port)
        inside = try Self.bound(port: 0)
        let serverAddress = Self.loopback(server)
        let thread = Thread { [self] in self.run(server: serverAddress, loss: loss, reorder: reorder, seed: seed) }
        thread.start()
    }

    /// What happened so far.
    public var current: Counts { counts.withLock { $0 } }

    /// Makes the direction towards the server a bottleneck of this rate, or lifts it (0).
    /// - Parameter bytesPerSecond: the rate; 0 for none.
    public func setRateCap(bytesPerSecond: Int) {
        rateCap.store(max(0, bytesPerSecond), ordering: .relaxed)
    }

    /// Stops relaying and closes its sockets.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        for _ in 0..<100 where !done.withLock({ $0 }) { usleep(10_000) }
    }

    deinit {
        stop()
        close(outside)
        close(inside)
    }

    private func run(server: sockaddr_in, loss: Double, reorder: Double, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var caller: sockaddr_in?
        var heldForward: [UInt8]?, heldBackward: [UInt8]?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptors = [pollfd(fd: outside, events: Int16(POLLIN), revents: 0), pollfd(fd: inside, events: Int16(POLLIN), revents: 0)]
        var bottleneck = Bottleneck()
        while !stopping.load(ordering: .relaxed) {
            let cap = rateCap.load(ordering: .relaxed)
            for datagram in bottleneck.due(rate: cap) {
                forward(datagram, from: inside, to: server, held: &heldForward, reorder: reorder, random: &random)
            }
            let wait = bottleneck.isEmpty ? 50 : 2
            guard poll(&descriptors, 2, Int32(wait)) > 0 else { continue }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                var from = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let count = buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(outside, raw.baseAddress, raw.count, 0, $0, &length) }
                    }
                }
                if count > 0 {
                    caller = from
                    let datagram = Array(buffer.prefix(count))
                    let isData = datagram[0] & 0x80 == 0
                    counts.withLock { $0.forward += 1 }
                    if Double(random.next() % 1_000_000) / 1_000_000 < loss {
                        counts.withLock { $0.forwardDropped += 1; if isData { $0.forwardDataDropped += 1 } }
                    } else if cap > 0 {
                        if !bottleneck.enqueue(datagram, rate: cap) { counts.withLock { $0.forwardQueueDropped += 1 } }
                    } else {
                        forward(datagram, from: inside, to: server, held: &heldForward, reorder: reorder, random: &random)
                    }
                }
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(inside, $0.baseAddress, $0.count, 0) }
                if count > 0, let caller {
                    counts.withLock { $0.backward += 1 }
                    if Double(random.next() % 1_000_000) / 1_000_000 < loss {
                        counts.withLock { $0.backwardDropped += 1 }
                    } else {
                        forward(Array(buffer.prefix(count)), from: outside, to: caller, held: &heldBackward, reorder: reorder, random: &random)
                    }
                }
            }
        }
        done.withLock { $0 = true }
    }

    /// A link of a fixed rate with a queue of a tenth of a second before it.
    private struct Bottleneck {
        private var queue: [[UInt8]] = []
        private var queuedBytes = 0
        private var nextDeparture = Date()

        var isEmpty: Bool { queue.isEmpty }

        /// Queues a datagram; `false` when the queue is full (dropped).
        mutating func enqueue(_ datagram: [UInt8], rate: Int) -> Bool {
            guard queuedBytes + datagram.count <= max(rate / 10, 2 * 1500) else { return false }
            queue.append(datagram)
            queuedBytes += datagram.count
            return true
        }

        /// The datagrams whose time to leave has come (all of them once the cap is lifted).
        mutating func due(rate: Int) -> [[UInt8]] {
            var leaving: [[UInt8]] = []
            let now = Date()
            if nextDeparture < now.addingTimeInterval(-0.01) { nextDeparture = now.addingTimeInterval(-0.01) }
            while let first = queue.first, rate <= 0 || nextDeparture <= now {
                queue.removeFirst()
                queuedBytes -= first.count
                if rate > 0 { nextDeparture = nextDeparture.addingTimeInterval(Double(first.count) / Double(rate)) }
                leaving.append(first)
            }
            return leaving
        }
    }

    /// Sends a datagram on, or holds it back to send after the next one.
    private func forward(_ datagram: [UInt8], from descriptor: Int32, to address: sockaddr_in, held: inout [UInt8]?,
                         reorder: Double, random: inout SplitMix64) {
        if held == nil, Double(random.next() % 1_000_000) / 1_000_000 < reorder {
            held = datagram
            counts.withLock { $0.reordered += 1 }
            return
        }
        send(datagram, from: descriptor, to: address)
        if let earlier = held {
            send(earlier, from: descriptor, to: address)
            held = nil
        }
    }

    private func send(_ datagram: [UInt8], from descriptor: Int32, to address: sockaddr_in) {
        var address = address
        _ = datagram.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private static func bound(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("relay: socket: errno \(errno)") }
        var address = loopback(port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(descriptor)
            throw TestFailure("relay: cannot bind 127.0.0.1:\(port): errno \(errno)")
        }
        return descriptor
    }
}

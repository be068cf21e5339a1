import Foundation
import Synchronization
import TestSupport

/// A small UDP relay on loopback that damages a stream the way a network does: it drops a share of the
/// datagrams, swaps neighbours (reordering) and sends some twice (duplication), deterministically from a
/// seed. Each listening port forwards to its own destination port, so RTP and RTCP of a video and an
/// audio stream go through one relay.
final class LossyRelay: Sendable {
    /// What the relay does to each datagram.
    struct Damage: Sendable {
        /// The share of datagrams dropped (0.01 is 1 %).
        var loss: Double = 0
        /// The share held back and sent after the next one.
        var reorder: Double = 0
        /// The share sent twice.
        var duplicate: Double = 0
        /// Only datagrams on these listening ports are damaged (RTP); the others (RTCP) pass untouched.
        var damagedPorts: Set<UInt16> = []
    }

    /// How many datagrams were forwarded, dropped, reordered and duplicated.
    struct Counts: Sendable {
        var received = 0, dropped = 0, reordered = 0, duplicated = 0
    }

    private let descriptors: [(descriptor: Int32, listen: UInt16, destination: UInt16)]
    private let stopping = Atomic<Bool>(false)
    private let counts = Mutex(Counts())
    private let finished = Mutex(false)

    /// Starts relaying.
    /// - Parameters:
    ///   - routes: (listening port, destination port) pairs on 127.0.0.1.
    ///   - damage: what to do to the datagrams.
    ///   - seed: the seed of the damage pattern.
    /// - Throws: if a port cannot be bound.
    init(routes: [(listen: UInt16, destination: UInt16)], damage: Damage, seed: UInt64 = 7) throws {
        var opened: [(Int32, UInt16, UInt16)] = []
        for route in routes {
            let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("relay: socket: errno \(errno)") }
            var size: Int32 = 4 << 20
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = Self.loopback(route.listen)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                for (other, _, _) in opened { close(other) }
                throw TestFailure("relay: cannot bind 127.0.0.1:\(route.listen): errno \(errno)")
            }
            opened.append((descriptor, route.listen, route.destination))
        }
        descriptors = opened.map { (descriptor: $0.0, listen: $0.1, destination: $0.2) }
        let thread = Thread { [self] in self.relay(damage: damage, seed: seed) }
        thread.start()
    }

    /// What the relay did so far.
    var statistics: Counts { counts.withLock { $0 } }

    /// Stops relaying and closes the ports.
    func stop() async {
        stopping.store(true, ordering: .relaxed)
        while !finished.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(20)) }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func relay(damage: Damage, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var pollSet = descriptors.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var held: [Int: [UInt8]] = [:]
        func send(_ bytes: [UInt8], route: Int) {
            var address = Self.loopback(descriptors[route].destination)
            _ = bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptors[route].descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }
        func chance(_ share: Double) -> Bool { share > 0 && Double(random.next() >> 11) / Double(1 << 53) < share }
        while !stopping.load(ordering: .relaxed) {
            guard poll(&pollSet, nfds_t(pollSet.count), 50) > 0 else { continue }
            for index in pollSet.indices where pollSet[index].revents & Int16(POLLIN) != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(descriptors[index].descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { continue }
                let datagram = Array(buffer[0..<count])
                counts.withLock { $0.received += 1 }
                guard damage.damagedPorts.contains(descriptors[index].listen) else {
                    send(datagram, route: index)
                    continue
                }
                if chance(damage.loss) {
                    counts.withLock { $0.dropped += 1 }
                    continue
                }
                if held[index] == nil, chance(damage.reorder) {
                    held[index] = datagram
                    counts.withLock { $0.reordered += 1 }
                    continue
                }
                send(datagram, route: index)
                if chance(damage.duplicate) {
                    send(datagram, route: index)
                    counts.withLock { $0.duplicated += 1 }
                }
                if let late = held.removeValue(forKey: index) { send(late, route: index) }
            }
        }
        for (index, late) in held { send(late, route: index) }
        for route in descriptors { close(route.descriptor) }
        finished.withLock { $0 = true }
    }
}

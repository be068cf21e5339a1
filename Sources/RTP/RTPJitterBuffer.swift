/// Puts RTP packets back in sequence order within a reorder window (RFC 3550 §A.1 sequence arithmetic, modulo
/// 2^16), drops duplicates and packets that come after their turn, and reports each gap it gives up on.
///
/// A missing packet is waited for until `reorderWindow` later packets have arrived (or the buffer is
/// drained); then it is reported as ``Output/lost(firstSequenceNumber:count:)`` and the packets after it are
/// released. Memory is bounded by the window: at most `reorderWindow` packets are held.
///
/// ```swift
/// var buffer = RTPJitterBuffer(reorderWindow: 64)
/// buffer.insert(try RTPPacket(parsing: datagram))
/// while let output = buffer.next() {
///     if case .packet(let packet) = output { _ = try depacketizer.depacketize(packet) { handle($0) } }
/// }
/// ```
public struct RTPJitterBuffer: Sendable {
    /// What became of an inserted packet.
    public enum InsertOutcome: Sendable, Hashable {
        /// Held until its turn (or released at once if it was the next expected).
        case buffered
        /// The same sequence number is already held or was just released; dropped.
        case duplicate
        /// Its turn has passed (it was given up as lost, or is older than the window); dropped.
        case late
    }

    /// What the buffer releases, in sequence order.
    public enum Output: Sendable {
        /// The next packet.
        case packet(RTPPacket)
        /// Packets that never arrived in time.
        case lost(firstSequenceNumber: UInt16, count: Int)
    }

    /// Counts of what the buffer saw.
    public struct Statistics: Sendable, Hashable {
        /// Packets inserted.
        public var received = 0
        /// Duplicates dropped.
        public var duplicates = 0
        /// Packets that arrived after a later one (and were still in time).
        public var reordered = 0
        /// Packets that arrived after their turn and were dropped.
        public var late = 0
        /// Packets reported lost.
        public var lost = 0
    }

    /// How many later packets are waited for before a missing one is reported lost.
    public let reorderWindow: Int
    /// What the buffer saw so far.
    public private(set) var statistics = Statistics()

    private var ring: RTPSequenceRing
    /// The newest sequence number inserted, as a distance from the expected one.
    private var newestDistance = -1

    /// A jitter buffer.
    /// - Parameter reorderWindow: how many packets may overtake a missing one before it is given up (1…32768,
    ///   rounded up to a power of two; 64 by default).
    public init(reorderWindow: Int = 64) {
        var size = 1
        while size < min(max(reorderWindow, 1), 32768) { size <<= 1 }
        self.reorderWindow = size
        ring = RTPSequenceRing(size: size)
    }

    /// Takes a packet.
    /// - Parameter packet: a packet as it arrived.
    /// - Returns: whether it is held, or dropped as a duplicate or late.
    @discardableResult
    public mutating func insert(_ packet: RTPPacket) -> InsertOutcome {
        statistics.received += 1
        let sequence = packet.sequenceNumber
        guard let base = ring.expected else {
            ring.start(at: sequence)
            store(packet, distance: 0)
            return .buffered
        }
        let distance = RTPSequenceNumber.distance(from: base, to: sequence)
        if distance < 0 {
            // Within the window behind, the ring of released numbers tells a repeat from a packet given up.
            if ring.wasReleased(sequence, distance: distance) {
                statistics.duplicates += 1
                return .duplicate
            }
            statistics.late += 1
            return .late
        }
        if distance >= reorderWindow {
            // Too far ahead for the window: give up what stands before it, as if the window had passed.
            advance(by: distance - reorderWindow + 1)
            return insert(reinserting: packet)
        }
        if ring.holds(sequence) {
            statistics.duplicates += 1
            return .duplicate
        }
        store(packet, distance: distance)
        return .buffered
    }

    private mutating func insert(reinserting packet: RTPPacket) -> InsertOutcome {
        statistics.received -= 1
        return insert(packet)
    }

    private mutating func store(_ packet: RTPPacket, distance: Int) {
        if distance < newestDistance { statistics.reordered += 1 }
        newestDistance = max(newestDistance, distance)
        ring.store(packet)
    }

    /// The next packet or gap in sequence order, or `nil` while the next packet may still come.
    /// - Returns: the output.
    public mutating func next() -> Output? {
        if let output = ring.takePending() { return output }
        guard let base = ring.expected else { return nil }
        if let packet = ring.take(base) {
            newestDistance -= 1
            return .packet(packet)
        }
        // Waiting for `base`: give it up once the window has passed it.
        guard ring.held > 0, newestDistance >= reorderWindow - 1 || ring.held >= reorderWindow else { return nil }
        return giveUpGap()
    }

    /// Everything still held, in order, with the gaps between: for the end of a stream.
    /// - Returns: the outputs.
    public mutating func drain() -> [Output] {
        var outputs: [Output] = []
        while let output = next() { outputs.append(output) }
        while ring.held > 0 {
            if let gap = giveUpGap() { outputs.append(gap) }
            while let output = next() { outputs.append(output) }
        }
        return outputs
    }

    /// Reports the missing run at the expected number up to the next held packet.
    private mutating func giveUpGap() -> Output? {
        guard let run = ring.giveUpRun() else { return nil }
        newestDistance -= run.count
        statistics.lost += run.count
        return .lost(firstSequenceNumber: run.first, count: run.count)
    }

    /// Moves the expected number forward by `count`, queueing the held packets and the gaps it passes.
    private mutating func advance(by count: Int) {
        statistics.lost += ring.advance(by: count)
        newestDistance -= count
    }
}

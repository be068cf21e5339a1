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

    private var slots: [RTPPacket?]
    /// The sequence numbers released last, by slot (−1: none), to tell duplicates from late packets.
    private var released: [Int32]
    private let mask: Int
    /// The sequence number released next.
    private var expected: UInt16?
    /// The newest sequence number inserted, as a distance from `expected`.
    private var newestDistance = -1
    private var held = 0
    private var pending: [Output] = []
    private var pendingIndex = 0

    /// A jitter buffer.
    /// - Parameter reorderWindow: how many packets may overtake a missing one before it is given up (1…32768,
    ///   rounded up to a power of two; 64 by default).
    public init(reorderWindow: Int = 64) {
        var size = 1
        while size < min(max(reorderWindow, 1), 32768) { size <<= 1 }
        self.reorderWindow = size
        self.slots = Array(repeating: nil, count: size)
        self.released = Array(repeating: -1, count: size)
        self.mask = size - 1
        pending.reserveCapacity(2 * size)
    }

    /// Takes a packet.
    /// - Parameter packet: a packet as it arrived.
    /// - Returns: whether it is held, or dropped as a duplicate or late.
    @discardableResult
    public mutating func insert(_ packet: RTPPacket) -> InsertOutcome {
        statistics.received += 1
        let sequence = packet.sequenceNumber
        guard let base = expected else {
            expected = sequence
            store(packet, distance: 0)
            return .buffered
        }
        let distance = RTPSequenceNumber.distance(from: base, to: sequence)
        if distance < 0 {
            // Within the window behind, the ring of released numbers tells a repeat from a packet given up.
            if distance >= -reorderWindow, released[Int(sequence) & mask] == Int32(sequence) {
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
        if let existing = slots[Int(sequence) & mask], existing.sequenceNumber == sequence {
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
        slots[Int(packet.sequenceNumber) & mask] = packet
        held += 1
    }

    /// The next packet or gap in sequence order, or `nil` while the next packet may still come.
    /// - Returns: the output.
    public mutating func next() -> Output? {
        if let output = takePending() { return output }
        guard let base = expected else { return nil }
        if let packet = take(base) { return .packet(packet) }
        // Waiting for `base`: give it up once the window has passed it.
        guard held > 0, newestDistance >= reorderWindow - 1 || held >= reorderWindow else { return nil }
        return giveUpGap()
    }

    /// Everything still held, in order, with the gaps between: for the end of a stream.
    /// - Returns: the outputs.
    public mutating func drain() -> [Output] {
        var outputs: [Output] = []
        while let output = next() { outputs.append(output) }
        while held > 0 {
            if let gap = giveUpGap() { outputs.append(gap) }
            while let output = next() { outputs.append(output) }
        }
        return outputs
    }

    private mutating func takePending() -> Output? {
        guard pendingIndex < pending.count else { return nil }
        defer {
            pendingIndex += 1
            if pendingIndex == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
            }
        }
        return pending[pendingIndex]
    }

    private mutating func take(_ sequence: UInt16) -> RTPPacket? {
        let index = Int(sequence) & mask
        guard let packet = slots[index], packet.sequenceNumber == sequence else { return nil }
        slots[index] = nil
        released[index] = Int32(sequence)
        held -= 1
        expected = sequence &+ 1
        newestDistance -= 1
        return packet
    }

    /// Reports the missing run at `expected` up to the next held packet.
    private mutating func giveUpGap() -> Output? {
        guard let base = expected, held > 0 else { return nil }
        var count = 0
        while count < reorderWindow, slots[Int(base &+ UInt16(count)) & mask]?.sequenceNumber != base &+ UInt16(count) {
            count += 1
        }
        expected = base &+ UInt16(count)
        newestDistance -= count
        statistics.lost += count
        return .lost(firstSequenceNumber: base, count: count)
    }

    /// Moves `expected` forward by `count`, queueing the held packets and the gaps it passes.
    private mutating func advance(by count: Int) {
        guard let base = expected else { return }
        var missingStart: UInt16?
        var missingCount = 0
        for step in 0..<min(count, reorderWindow) {
            let sequence = base &+ UInt16(step)
            let index = Int(sequence) & mask
            if let packet = slots[index], packet.sequenceNumber == sequence {
                if let start = missingStart {
                    pending.append(.lost(firstSequenceNumber: start, count: missingCount))
                    statistics.lost += missingCount
                    missingStart = nil
                    missingCount = 0
                }
                slots[index] = nil
                released[index] = Int32(sequence)
                held -= 1
                pending.append(.packet(packet))
            } else {
                if missingStart == nil { missingStart = sequence }
                missingCount += 1
            }
        }
        missingCount += max(0, count - reorderWindow)
        if let start = missingStart ?? (count > reorderWindow ? base &+ UInt16(reorderWindow) : nil), missingCount > 0 {
            pending.append(.lost(firstSequenceNumber: start, count: missingCount))
            statistics.lost += missingCount
        }
        expected = base &+ UInt16(truncatingIfNeeded: count)
        newestDistance -= count
    }
}

/// The ring both jitter buffers keep packets in (``RTPJitterBuffer``, ``RTPNACKJitterBuffer``): a slot per sequence
/// number modulo a power of two, the sequence number released next, the numbers released last (to tell a repeat
/// from a packet given up), and the queue of outputs that one move forward released at once. Sequence arithmetic is
/// RFC 3550 §A.1's, modulo 2^16. The buffers decide when to wait and when to give up; the ring only keeps order.
struct RTPSequenceRing: Sendable {
    /// The slots (a power of two).
    let size: Int
    /// The sequence number released next (`nil` before the first packet).
    private(set) var expected: UInt16?
    /// Packets held.
    private(set) var held = 0

    private var slots: [RTPPacket?]
    /// The sequence numbers released last, by slot (−1: none).
    private var released: [Int32]
    private let mask: Int
    private var pending: [RTPJitterBuffer.Output] = []
    private var pendingIndex = 0

    /// A ring of `size` slots (a power of two).
    init(size: Int) {
        self.size = size
        slots = Array(repeating: nil, count: size)
        released = Array(repeating: -1, count: size)
        mask = size - 1
        pending.reserveCapacity(min(2 * size, 256))
    }

    /// Starts the sequence at the first packet's number.
    mutating func start(at sequence: UInt16) { expected = sequence }

    /// Whether a packet `distance` behind the expected one (negative) was released, not given up: a repeat.
    func wasReleased(_ sequence: UInt16, distance: Int) -> Bool {
        distance >= -size && released[Int(sequence) & mask] == Int32(sequence)
    }

    /// Whether the packet of this number is held.
    func holds(_ sequence: UInt16) -> Bool { slots[Int(sequence) & mask]?.sequenceNumber == sequence }

    /// Holds a packet (its distance from the expected one must be below ``size``).
    mutating func store(_ packet: RTPPacket) {
        slots[Int(packet.sequenceNumber) & mask] = packet
        held += 1
    }

    /// The packet of this number, released, the expected number moving past it; `nil` when it is not held.
    mutating func take(_ sequence: UInt16) -> RTPPacket? {
        let index = Int(sequence) & mask
        guard let packet = slots[index], packet.sequenceNumber == sequence else { return nil }
        slots[index] = nil
        released[index] = Int32(sequence)
        held -= 1
        expected = sequence &+ 1
        return packet
    }

    /// The next output a move forward queued, if any.
    mutating func takePending() -> RTPJitterBuffer.Output? {
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

    /// Gives up the run of missing numbers at the expected one, up to the next held packet (at most ``size``).
    /// - Returns: the run; `nil` when nothing is held.
    mutating func giveUpRun() -> (first: UInt16, count: Int)? {
        guard let base = expected, held > 0 else { return nil }
        var count = 0
        while count < size, !holds(base &+ UInt16(count)) { count += 1 }
        expected = base &+ UInt16(count)
        return (base, count)
    }

    /// Moves the expected number forward by `count`, queueing the held packets it passes and the runs missing
    /// between them (what lies beyond the ring counts as one missing run).
    /// - Returns: how many numbers were passed missing.
    mutating func advance(by count: Int) -> Int {
        guard let base = expected else { return 0 }
        var lost = 0
        var missingStart: UInt16?
        var missingCount = 0
        func flushMissing() {
            guard let start = missingStart, missingCount > 0 else { return }
            pending.append(.lost(firstSequenceNumber: start, count: missingCount))
            lost += missingCount
            missingStart = nil
            missingCount = 0
        }
        for step in 0..<min(count, size) {
            let sequence = base &+ UInt16(truncatingIfNeeded: step)
            let index = Int(sequence) & mask
            if let packet = slots[index], packet.sequenceNumber == sequence {
                flushMissing()
                slots[index] = nil
                released[index] = Int32(sequence)
                held -= 1
                pending.append(.packet(packet))
            } else {
                if missingStart == nil { missingStart = sequence }
                missingCount += 1
            }
        }
        let beyond = max(0, count - size)
        if missingStart == nil, beyond > 0 { missingStart = base &+ UInt16(truncatingIfNeeded: size) }
        missingCount += beyond
        flushMissing()
        expected = base &+ UInt16(truncatingIfNeeded: count)
        return lost
    }
}

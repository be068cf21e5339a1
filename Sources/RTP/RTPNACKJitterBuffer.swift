/// A receiver's jitter buffer that asks for what is missing: RTP packets are put back in sequence order (RFC 3550
/// §A.1 arithmetic modulo 2^16), and every hole is remembered with the time it was seen so that the receiver can
/// send generic NACKs for it (RFC 4585 §6.2.1) — again after ``Configuration/retryInterval`` while it stays missing,
/// at most ``Configuration/maximumRequests`` times — and give it up once it has been waited for
/// ``Configuration/maximumDelay`` (the bound on the delay a hole adds) or once ``Configuration/capacity`` packets are
/// held behind it (the bound on memory).
///
/// The times are the caller's (any monotonic clock as a `Duration`), so the buffer is a value with no clock of its
/// own and replays deterministically.
///
/// ```swift
/// var buffer = RTPNACKJitterBuffer()
/// buffer.insert(packet, at: now)
/// let lost = buffer.requests(at: now)          // → an RTCPGenericNACK
/// while let output = buffer.next(at: now) { … }
/// ```
public struct RTPNACKJitterBuffer: Sendable {
    /// The bounds of the buffer.
    public struct Configuration: Sendable, Hashable {
        /// The most packets held (rounded up to a power of two, 16…32768).
        public var capacity: Int
        /// How long a hole is waited for before the packets after it are released without it.
        public var maximumDelay: Duration
        /// The time between two requests for the same packet.
        public var retryInterval: Duration
        /// The most requests for one packet.
        public var maximumRequests: Int

        /// A configuration.
        /// - Parameters:
        ///   - capacity: the most packets held (default 1024).
        ///   - maximumDelay: how long a hole is waited for (default 400 ms).
        ///   - retryInterval: the time between requests for one packet (default 60 ms).
        ///   - maximumRequests: the most requests for one packet (default 5).
        public init(capacity: Int = 1024, maximumDelay: Duration = .milliseconds(400), retryInterval: Duration = .milliseconds(60),
                    maximumRequests: Int = 5) {
            self.capacity = capacity
            self.maximumDelay = maximumDelay
            self.retryInterval = retryInterval
            self.maximumRequests = maximumRequests
        }
    }

    /// Counts of what the buffer saw.
    public struct Statistics: Sendable, Hashable {
        /// Packets inserted.
        public var received = 0
        /// Duplicates dropped.
        public var duplicates = 0
        /// Packets that came after a newer one, still in time.
        public var reordered = 0
        /// Packets that came after their turn (given up, or older than the buffer), dropped.
        public var late = 0
        /// Packets given up as lost.
        public var lost = 0
        /// Sequence numbers asked for at least once.
        public var requested = 0
        /// Requests made, repeats included.
        public var requests = 0
        /// Asked-for packets that then arrived in time.
        public var recovered = 0
        /// Every count at zero.
        public init() {}
    }

    private struct Hole {
        var detected: Duration
        var lastRequest: Duration?
        var requests = 0
    }

    /// The bounds.
    public let configuration: Configuration
    /// What the buffer saw so far.
    public private(set) var statistics = Statistics()

    private var ring: RTPSequenceRing
    /// The newest sequence number inserted.
    private var newest: UInt16 = 0
    private var holes: [UInt16: Hole] = [:]

    /// A buffer.
    /// - Parameter configuration: its bounds.
    public init(configuration: Configuration = Configuration()) {
        var size = 16
        while size < min(max(configuration.capacity, 16), 32768) { size <<= 1 }
        var bounded = configuration
        bounded.capacity = size
        bounded.maximumRequests = max(0, configuration.maximumRequests)
        self.configuration = bounded
        ring = RTPSequenceRing(size: size)
    }

    /// The packets held now.
    public var heldPackets: Int { ring.held }

    /// The sequence numbers missing now (waited for, not yet given up).
    public var missingPackets: Int { holes.count }

    /// Takes a packet as it arrived (a retransmission already unwrapped to its original sequence number).
    /// - Parameters:
    ///   - packet: the packet.
    ///   - now: the arrival time.
    /// - Returns: whether it is held, or dropped as a duplicate or late.
    @discardableResult
    public mutating func insert(_ packet: RTPPacket, at now: Duration) -> RTPJitterBuffer.InsertOutcome {
        statistics.received += 1
        let sequence = packet.sequenceNumber
        guard let base = ring.expected else {
            ring.start(at: sequence)
            newest = sequence
            ring.store(packet)
            return .buffered
        }
        let distance = RTPSequenceNumber.distance(from: base, to: sequence)
        if distance < 0 {
            if ring.wasReleased(sequence, distance: distance) {
                statistics.duplicates += 1
                return .duplicate
            }
            statistics.late += 1
            return .late
        }
        if distance >= configuration.capacity {
            // Too far ahead: what stands more than the capacity before it is given up now.
            advance(by: distance - configuration.capacity + 1)
            statistics.received -= 1
            return insert(packet, at: now)
        }
        if ring.holds(sequence) {
            statistics.duplicates += 1
            return .duplicate
        }
        if RTPSequenceNumber.distance(from: newest, to: sequence) > 0 {
            var missing = newest &+ 1
            while missing != sequence {
                holes[missing] = Hole(detected: now)
                missing &+= 1
            }
            newest = sequence
        } else {
            statistics.reordered += 1
            if let hole = holes.removeValue(forKey: sequence), hole.requests > 0 { statistics.recovered += 1 }
        }
        ring.store(packet)
        return .buffered
    }

    /// The sequence numbers to ask for now: each hole not yet asked for, and each asked for at least
    /// ``Configuration/retryInterval`` ago fewer than ``Configuration/maximumRequests`` times and not about to be
    /// given up; oldest first. Each is counted as asked for at `now`.
    /// - Parameter now: the time.
    /// - Returns: the sequence numbers (at most ``RTCPFeedbackRequests/maximumLostPerSource``).
    public mutating func requests(at now: Duration) -> [UInt16] {
        guard let base = ring.expected, !holes.isEmpty else { return [] }
        var due: [UInt16] = []
        for (sequence, hole) in holes where hole.requests < configuration.maximumRequests {
            guard now - hole.detected < configuration.maximumDelay else { continue }
            if let last = hole.lastRequest, now - last < configuration.retryInterval { continue }
            due.append(sequence)
        }
        due.sort { RTPSequenceNumber.distance(from: base, to: $0) < RTPSequenceNumber.distance(from: base, to: $1) }
        if due.count > RTCPFeedbackRequests.maximumLostPerSource { due.removeLast(due.count - RTCPFeedbackRequests.maximumLostPerSource) }
        for sequence in due {
            guard var hole = holes[sequence] else { continue }
            if hole.requests == 0 { statistics.requested += 1 }
            hole.requests += 1
            hole.lastRequest = now
            holes[sequence] = hole
            statistics.requests += 1
        }
        return due
    }

    /// The next packet or given-up hole in sequence order, or `nil` while the next packet may still come.
    /// - Parameter now: the time (a hole older than ``Configuration/maximumDelay`` is given up).
    /// - Returns: the output.
    public mutating func next(at now: Duration) -> RTPJitterBuffer.Output? {
        if let output = ring.takePending() { return output }
        guard let base = ring.expected else { return nil }
        if let packet = ring.take(base) { return .packet(packet) }
        guard ring.held > 0 else { return nil }
        let detected = holes[base]?.detected ?? now
        guard now - detected >= configuration.maximumDelay || ring.held >= configuration.capacity else { return nil }
        return giveUpHole()
    }

    /// Everything still held, in order, with the holes between: for the end of a stream.
    /// - Returns: the outputs.
    public mutating func drain() -> [RTPJitterBuffer.Output] {
        var outputs: [RTPJitterBuffer.Output] = []
        while let output = ring.takePending() { outputs.append(output) }
        while ring.held > 0, let base = ring.expected {
            if let packet = ring.take(base) {
                outputs.append(.packet(packet))
            } else if let hole = giveUpHole() {
                outputs.append(hole)
            }
        }
        holes.removeAll()
        return outputs
    }

    /// Gives up the run of missing packets at the expected number, up to the next held one.
    private mutating func giveUpHole() -> RTPJitterBuffer.Output? {
        guard let run = ring.giveUpRun() else { return nil }
        for step in 0..<run.count { holes.removeValue(forKey: run.first &+ UInt16(truncatingIfNeeded: step)) }
        statistics.lost += run.count
        return .lost(firstSequenceNumber: run.first, count: run.count)
    }

    /// Moves the expected number forward by `count`, queueing the packets and holes it passes.
    private mutating func advance(by count: Int) {
        statistics.lost += ring.advance(by: count)
        guard let next = ring.expected else { return }
        if RTPSequenceNumber.distance(from: newest, to: next) > 0 { newest = next &- 1 }
        holes = holes.filter { RTPSequenceNumber.distance(from: next, to: $0.key) >= 0 }
    }
}

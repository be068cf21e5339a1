/// What a receiver knows about one RTP source (RFC 3550 A.1, A.3, A.8): the extended highest sequence
/// number, packets expected, received and lost, the loss fraction of each report interval, the
/// interarrival jitter — the numbers of a reception report block — and counts of reordered and
/// duplicated packets, which RFC 3550 leaves to the implementation.
///
/// Feed it every packet of the source with its arrival time, read the counters, and make a report block
/// at each RTCP interval:
///
/// ```swift
/// var statistics = ReceptionStatistics(ssrc: packet.ssrc, clockRate: 90_000)
/// statistics.record(sequenceNumber: packet.sequenceNumber, timestamp: packet.timestamp, arrival: now)
/// let block = statistics.makeReportBlock(at: now)   // RR every few seconds
/// ```
///
/// A source is valid after ``minimumSequential`` packets in sequence (the probation of A.1); a jump of
/// more than ``maximumDropout`` is taken as a restart of the sender only when the next packet follows it.
public struct ReceptionStatistics: Sendable, Hashable {
    /// What one packet was, for the statistics.
    public enum Outcome: Sendable, Hashable {
        /// The next packet, or one after a gap (the packets in the gap count as lost until they arrive).
        case inOrder
        /// A packet older than the highest one received, arriving for the first time (it was counted as
        /// lost and no longer is).
        case reordered
        /// A packet received before (counted as received again, as A.1 does, and in ``duplicatePackets``).
        case duplicate
        /// The source is not valid yet (A.1 probation); the packet is not counted.
        case probation
        /// The sequence number jumped by more than ``maximumDropout``; the packet is not counted, and the
        /// statistics restart if the next packet follows it.
        case sequenceJump
        /// The sequence jumped and the next packet confirmed the new sequence: the statistics restarted
        /// from this packet (the sender restarted, A.1).
        case restarted
    }

    /// The largest forward jump taken as loss rather than as a restart (A.1 `MAX_DROPOUT`).
    public static let maximumDropout: UInt16 = 3000
    /// The largest backward step taken as reordering rather than as a restart (A.1 `MAX_MISORDER`).
    public static let maximumMisorder: UInt16 = 100
    /// Packets in sequence needed before a source is valid (A.1 `MIN_SEQUENTIAL`).
    public static let minimumSequential = 2
    /// How many recent sequence numbers are remembered to tell a duplicate from a late packet.
    static let historySize = 1024

    /// The source.
    public let ssrc: UInt32
    /// The RTP clock rate of the source's payload format (Hz).
    public let clockRate: Int

    private var maximumSequence: UInt16 = 0
    private var cycles: UInt32 = 0
    private var baseSequence: UInt32 = 0
    private var badSequence: UInt32 = 1 << 16 + 1
    private var probation = ReceptionStatistics.minimumSequential
    private var started = false
    private var received: UInt64 = 0
    private var expectedPrior: Int64 = 0
    private var receivedPrior: UInt64 = 0
    private var history = [UInt64](repeating: 0, count: ReceptionStatistics.historySize / 64)
    private var lastArrival: Int64?
    private var lastTimestamp: UInt32 = 0
    private var jitterEstimate = 0.0
    private var lastSenderReport: UInt32 = 0
    private var lastSenderReportArrival: Duration?

    /// Packets received and counted since the source became valid, duplicates included (A.3).
    public var packetsReceived: UInt64 { received }
    /// Packets that arrived out of order (late, first time).
    public private(set) var reorderedPackets: UInt64 = 0
    /// Packets that arrived more than once.
    public private(set) var duplicatePackets: UInt64 = 0
    /// Times the sender restarted its sequence (A.1 resynchronisation).
    public private(set) var restarts = 0
    /// The loss fraction of the last report interval, in 1/256 (A.3).
    public private(set) var lastFractionLost: UInt8 = 0

    /// Statistics for a new source.
    /// - Parameters:
    ///   - ssrc: the source's SSRC.
    ///   - clockRate: its RTP clock rate, for the jitter (90000 for video, the sample rate for audio).
    public init(ssrc: UInt32, clockRate: Int) {
        self.ssrc = ssrc
        self.clockRate = max(clockRate, 1)
    }

    /// Whether the source has passed probation.
    public var isValid: Bool { started && probation == 0 }

    /// The extended highest sequence number received: cycles in the high 16 bits (A.1).
    public var extendedHighestSequenceNumber: UInt32 { cycles &+ UInt32(maximumSequence) }

    /// The packets expected: extended highest minus the first sequence number, plus one (A.3).
    public var expectedPackets: Int64 {
        guard isValid else { return 0 }
        return Int64(cycles) + Int64(maximumSequence) - Int64(baseSequence) + 1
    }

    /// Expected minus received: the cumulative number of packets lost (A.3). Duplicates count as
    /// received, so this can be negative.
    public var cumulativeLost: Int64 { expectedPackets - Int64(received) }

    /// Packets that never arrived: ``cumulativeLost`` with the duplicates taken out.
    public var packetsLost: Int64 { max(0, cumulativeLost + Int64(duplicatePackets)) }

    /// The interarrival jitter estimate in RTP timestamp units (A.8).
    public var jitter: Double { jitterEstimate }

    /// The interarrival jitter in seconds.
    public var jitterSeconds: Double { jitterEstimate / Double(clockRate) }

    /// Counts one packet of the source (A.1 `update_seq`, A.8 jitter).
    /// - Parameters:
    ///   - sequenceNumber: the packet's sequence number.
    ///   - timestamp: its RTP timestamp.
    ///   - arrival: when it arrived, on any monotonic clock (the same for every call).
    /// - Returns: what the packet was.
    @discardableResult
    public mutating func record(sequenceNumber: UInt16, timestamp: UInt32, arrival: Duration) -> Outcome {
        let outcome = updateSequence(sequenceNumber)
        switch outcome {
        case .inOrder, .reordered, .restarted:
            updateJitter(timestamp: timestamp, arrival: arrival)
        case .duplicate, .probation, .sequenceJump:
            break
        }
        return outcome
    }

    private mutating func updateSequence(_ sequence: UInt16) -> Outcome {
        guard started else {
            // First packet: A.1 init_seq, then probation.
            initialize(sequence)
            maximumSequence = sequence &- 1
            probation = Self.minimumSequential
            started = true
            return probationStep(sequence)
        }
        if probation > 0 { return probationStep(sequence) }
        let delta = sequence &- maximumSequence
        if delta == 0 {
            duplicatePackets += 1
            received += 1
            return .duplicate
        }
        if delta < Self.maximumDropout {
            if sequence < maximumSequence { cycles &+= 1 << 16 }
            let previous = extendedHighestSequenceNumber
            maximumSequence = sequence
            markRange(after: previous, through: extendedHighestSequenceNumber)
            received += 1
            return .inOrder
        }
        if delta <= UInt16.max - Self.maximumMisorder {
            // A large jump: a restart if the next packet follows it (A.1).
            if UInt32(sequence) == badSequence {
                initialize(sequence)
                restarts += 1
                received += 1
                return .restarted
            }
            badSequence = UInt32(sequence &+ 1)
            return .sequenceJump
        }
        // Older than the highest: late or duplicated.
        var extended = Int64(cycles) + Int64(sequence)
        if sequence > maximumSequence { extended -= 1 << 16 }
        received += 1
        let highest = Int64(extendedHighestSequenceNumber)
        guard extended >= 0, highest - extended < Int64(Self.historySize) else {
            reorderedPackets += 1
            return .reordered
        }
        if isMarked(UInt32(extended)) {
            duplicatePackets += 1
            return .duplicate
        }
        mark(UInt32(extended))
        reorderedPackets += 1
        return .reordered
    }

    private mutating func probationStep(_ sequence: UInt16) -> Outcome {
        if sequence == maximumSequence &+ 1 {
            probation -= 1
            maximumSequence = sequence
            if probation == 0 {
                initialize(sequence)
                received += 1
                return .inOrder
            }
        } else {
            probation = Self.minimumSequential - 1
            maximumSequence = sequence
        }
        return .probation
    }

    /// A.1 `init_seq`.
    private mutating func initialize(_ sequence: UInt16) {
        baseSequence = UInt32(sequence)
        maximumSequence = sequence
        badSequence = 1 << 16 + 1
        cycles = 0
        received = 0
        receivedPrior = 0
        expectedPrior = 0
        for index in history.indices { history[index] = 0 }
        mark(UInt32(sequence))
    }

    private mutating func markRange(after previous: UInt32, through current: UInt32) {
        let distance = current &- previous
        if distance >= UInt32(Self.historySize) {
            for index in history.indices { history[index] = 0 }
        } else {
            var number = previous &+ 1
            while number != current {
                clear(number)
                number &+= 1
            }
        }
        mark(current)
    }

    private func isMarked(_ extended: UInt32) -> Bool {
        let slot = Int(extended % UInt32(Self.historySize))
        return history[slot >> 6] & (1 << UInt64(slot & 63)) != 0
    }

    private mutating func mark(_ extended: UInt32) {
        let slot = Int(extended % UInt32(Self.historySize))
        history[slot >> 6] |= 1 << UInt64(slot & 63)
    }

    private mutating func clear(_ extended: UInt32) {
        let slot = Int(extended % UInt32(Self.historySize))
        history[slot >> 6] &= ~(1 << UInt64(slot & 63))
    }

    /// A.8: D(i−1, i) = (Rᵢ − Rᵢ₋₁) − (Sᵢ − Sᵢ₋₁) in timestamp units; J += (|D| − J) / 16.
    private mutating func updateJitter(timestamp: UInt32, arrival: Duration) {
        // Arrival in nanoseconds; the difference converted to timestamp units exactly where it can be.
        let components = arrival.components
        let nanoseconds = components.seconds &* 1_000_000_000 &+ components.attoseconds / 1_000_000_000
        if let lastArrival {
            let elapsed = nanoseconds &- lastArrival
            let (product, overflow) = elapsed.multipliedReportingOverflow(by: Int64(clockRate))
            let received = overflow ? Double(elapsed) * Double(clockRate) / 1e9 : Double(product) / 1e9
            let sent = Double(Int32(bitPattern: timestamp &- lastTimestamp))
            jitterEstimate += (abs(received - sent) - jitterEstimate) / 16
        }
        lastArrival = nanoseconds
        lastTimestamp = timestamp
    }

    /// Remembers a sender report of the source, for the LSR and DLSR fields of the next report block.
    /// - Parameters:
    ///   - report: the SR.
    ///   - arrival: when it arrived, on the clock of ``record(sequenceNumber:timestamp:arrival:)``.
    public mutating func recordSenderReport(_ report: RTCPSenderReport, arrival: Duration) {
        lastSenderReport = report.ntpTimestamp.middle32
        lastSenderReportArrival = arrival
    }

    /// The reception report block for this source, and the start of a new interval (A.3): fraction lost
    /// since the last block, cumulative loss clamped to 24 bits, jitter, LSR and DLSR.
    /// - Parameter now: the time the report is sent, on the arrival clock.
    /// - Returns: the block, or `nil` while the source is in probation.
    public mutating func makeReportBlock(at now: Duration) -> RTCPReportBlock? {
        guard isValid else { return nil }
        let expected = expectedPackets
        let expectedInterval = expected - expectedPrior
        expectedPrior = expected
        let receivedInterval = Int64(received) - Int64(receivedPrior)
        receivedPrior = received
        let lostInterval = expectedInterval - receivedInterval
        lastFractionLost = expectedInterval <= 0 || lostInterval <= 0 ? 0 : UInt8(min(255, (lostInterval << 8) / expectedInterval))
        var delay: UInt32 = 0
        if let lastSenderReportArrival, now >= lastSenderReportArrival {
            let elapsed = (now - lastSenderReportArrival).components
            let units = Double(elapsed.seconds) * 65536 + Double(elapsed.attoseconds) * 65536e-18
            delay = UInt32(min(units, Double(UInt32.max)))
        }
        let lost = Int32(min(max(cumulativeLost, -0x80_0000), 0x7F_FFFF))
        return RTCPReportBlock(ssrc: ssrc, fractionLost: lastFractionLost, cumulativeLost: lost,
                               extendedHighestSequenceNumber: extendedHighestSequenceNumber,
                               jitter: UInt32(min(jitterEstimate, Double(UInt32.max))), lastSenderReport: lastSenderReport,
                               delaySinceLastSenderReport: delay)
    }
}

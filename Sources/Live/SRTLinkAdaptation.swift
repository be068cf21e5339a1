import Transport

/// Turns what SRT counts on a sending connection (``SRTStatistics``) into bit-rate suggestions for the pipeline's
/// adaptation policy — the SRT counterpart of the queue measurement an RTMP publisher makes.
///
/// SRT in live mode sends at the pace the encoder gives it; a link slower than the stream shows as media that waits
/// in the sender's buffer longer than a round trip (packets lost at the bottleneck, asked for again, acknowledged
/// late) and, once that wait reaches the latency, as packets the sender drops because they are too late to play
/// (`SRTO_TLPKTDROP`). So the backlog this follows is the send buffer's span minus one round-trip time; packets the
/// sender dropped since the last look, or that found the send buffer full, count as a backlog at the high-water mark
/// whatever the span says. The thresholds scale with the connection's latency: the backlog may not reach it without
/// loss. A lossy link with room to spare retransmits within a round trip or two and does not step down.
///
/// After a step down the backlog takes a while to drain (what was sent at the old rate still has to cross the link):
/// while it shrinks — it is not above what it was half a second before by more than a twentieth of the latency — no
/// further step is taken, so the rate does not overshoot far below the link while the queue empties. A step down needs
/// two readings in a row that call for it, so one reading does not decide (a puller that vanished between two readings
/// looks congested once before ``SRTPeerLiveness`` sees its silence). A listener whose pullers have all gone returns to
/// the stream's rate (``restore()``).
public struct SRTLinkAdaptation: Sendable {
    /// The step rules (their water marks come from the latency; their rates from the stream).
    public private(set) var controller: BitRateController
    private var lastDroppedBySender: Int?
    private var lastRefused = 0
    /// Whether the last reading showed a backlog or drops: a step down needs two such readings in a row.
    private var wasCongested = false
    /// The backlog over the last half second or so, oldest first.
    private var history: [(at: Double, backlog: Double)] = []

    /// Creates the adaptation for a connection.
    /// - Parameters:
    ///   - initialBitRate: the stream's configured video bit rate (the ceiling).
    ///   - minimumBitRate: the lowest bit rate to suggest.
    ///   - latency: the connection's latency (SRT's `latency`, the time a packet has to arrive); the backlog steps the
    ///     rate down above half of it and counts as drained below an eighth.
    public init(initialBitRate: Int, minimumBitRate: Int, latency: Duration) {
        let seconds = max(0.02, latency.seconds)
        controller = BitRateController(adaptation: BitRateAdaptation(
            initialBitRate: initialBitRate, minimumBitRate: minimumBitRate,
            highWaterSeconds: seconds / 2, lowWaterSeconds: seconds / 8, stepDownInterval: max(0.5, seconds), stepUpInterval: 2))
    }

    /// The backlog statistics show: the send buffer's span beyond one round trip, in seconds.
    /// - Parameter statistics: one connection's counters.
    /// - Returns: seconds of media waiting longer than a round trip.
    public static func backlog(_ statistics: SRTStatistics) -> Double {
        max(0, statistics.sendBufferDelay.seconds - statistics.roundTripTime.seconds)
    }

    /// Returns to the stream's own rate when no connection is left to measure (a listener's last puller went away):
    /// the next puller starts at the configured quality and the adaptation measures its link afresh.
    /// - Returns: the stream's rate when the suggestion changes, else `nil`.
    public mutating func restore() -> Int? {
        let adaptation = controller.adaptation
        guard controller.bitRate != adaptation.initialBitRate else { return nil }
        controller = BitRateController(adaptation: adaptation)
        lastDroppedBySender = nil
        lastRefused = 0
        wasCongested = false
        history = []
        return adaptation.initialBitRate
    }

    /// Looks at the connections' counters and decides.
    /// - Parameters:
    ///   - connections: the counters of every connection fed that still answers (a listener's pullers: the slowest
    ///     decides); with none, the rate holds.
    ///   - refusedPackets: packets the destination dropped so far because a send buffer was full (a running total).
    ///   - now: a monotonic time in seconds.
    /// - Returns: the bit rate to suggest when it changes, else `nil`.
    public mutating func observe(_ connections: [SRTStatistics], refusedPackets: Int, at now: Double) -> Int? {
        guard !connections.isEmpty else { return nil }
        let droppedBySender = connections.map(\.packetsDroppedBySender).reduce(0, +)
        let newDrops = droppedBySender - (lastDroppedBySender ?? droppedBySender) + refusedPackets - lastRefused
        lastDroppedBySender = droppedBySender
        lastRefused = refusedPackets
        var backlog = connections.map(Self.backlog).max() ?? 0
        if newDrops > 0 { backlog = max(backlog, controller.adaptation.highWaterSeconds + 0.001) }
        let latency = controller.adaptation.highWaterSeconds * 2
        history.append((now, backlog))
        while let first = history.first, now - first.at > 0.55 { history.removeFirst() }
        let earlier = history.count > 1 ? history.first?.backlog : nil
        let congested = newDrops > 0 || backlog > controller.adaptation.highWaterSeconds
        defer { wasCongested = congested }
        if congested, !wasCongested {
            // One reading alone does not step: a puller that vanished a moment ago shows a growing buffer (and soon
            // drops) before its silence can be seen; the next reading leaves it out.
            backlog = controller.adaptation.highWaterSeconds
        } else if newDrops == 0, backlog > controller.adaptation.highWaterSeconds, let earlier, backlog <= earlier + latency / 20 {
            // Draining: hold the rate (neither a step down nor a drained link).
            backlog = controller.adaptation.highWaterSeconds
        }
        return controller.observe(queuedSeconds: backlog, at: now)
    }
}

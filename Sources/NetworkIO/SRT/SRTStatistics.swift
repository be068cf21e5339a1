/// An SRT connection's counters, as libsrt keeps them (`srt_bstats`): totals since the connection began and the
/// link's current state.
public struct SRTStatistics: Hashable, Sendable, CustomStringConvertible {
    /// The smoothed round-trip time.
    public var roundTripTime: Duration
    /// The link capacity SRT estimates from packet pairs, in bits per second.
    public var estimatedBandwidth: Int
    /// The rate this side sends at now, retransmissions included, in bits per second.
    public var sendRate: Int
    /// Data packets sent, retransmissions included.
    public var packetsSent: Int
    /// Data packets received.
    public var packetsReceived: Int
    /// Packets the peer reported lost (negative acknowledgements received, as the sender).
    public var packetsReportedLost: Int
    /// Packets this side found missing (as the receiver).
    public var packetsLost: Int
    /// Packets sent again.
    public var packetsRetransmitted: Int
    /// Packets the sender dropped because they were too late to send.
    public var packetsDroppedBySender: Int
    /// Packets the receiver gave up on (too late to play: a hole in what it delivered).
    public var packetsDroppedByReceiver: Int
    /// Bytes sent, retransmissions included.
    public var bytesSent: Int
    /// Bytes received.
    public var bytesReceived: Int
    /// How much of the send buffer is waiting for acknowledgement, as a time span.
    public var sendBufferDelay: Duration
    /// The free space of the send buffer, in bytes.
    public var sendBufferAvailable: Int
    /// How much the receiver holds that it has not delivered yet, as a time span.
    public var receiveBufferDelay: Duration
    /// Packets sent and not yet acknowledged.
    public var packetsInFlight: Int
    /// Acknowledgements received from the peer (full and light ACKs) — a sender's sign that the peer is still there.
    public var acknowledgementsReceived: Int
    /// Negative acknowledgements (loss reports) received from the peer — the other sign that it is still there: a
    /// receiver behind a congested link reports losses while its acknowledgement number waits for a retransmission.
    public var negativeAcknowledgementsReceived: Int

    /// Counters all zero.
    public init() {
        roundTripTime = .zero
        estimatedBandwidth = 0
        sendRate = 0
        packetsSent = 0
        packetsReceived = 0
        packetsReportedLost = 0
        packetsLost = 0
        packetsRetransmitted = 0
        packetsDroppedBySender = 0
        packetsDroppedByReceiver = 0
        bytesSent = 0
        bytesReceived = 0
        sendBufferDelay = .zero
        sendBufferAvailable = 0
        receiveBufferDelay = .zero
        packetsInFlight = 0
        acknowledgementsReceived = 0
        negativeAcknowledgementsReceived = 0
    }

    /// For example `RTT 1.2 ms, sent 1830 packets (12 retransmitted, 12 reported lost), received 0 (0 lost, 0 dropped)`.
    public var description: String {
        let milliseconds = Double(roundTripTime.components.seconds) * 1000 + Double(roundTripTime.components.attoseconds) / 1e15
        let rtt = (milliseconds * 10).rounded() / 10
        return "RTT \(rtt) ms, sent \(packetsSent) packets (\(packetsRetransmitted) retransmitted, \(packetsReportedLost) reported lost, "
            + "\(packetsDroppedBySender) dropped), received \(packetsReceived) (\(packetsLost) lost, \(packetsDroppedByReceiver) dropped)"
    }
}

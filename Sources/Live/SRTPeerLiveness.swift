import Transport

/// Whether an SRT peer still answers, from the control packets it sends: acknowledgements (SRT's receiver acknowledges
/// every 10 ms while data arrives, and repeats an unchanged acknowledgement after a round trip) and loss reports (a
/// receiver behind a congested link reports each gap at once, and again periodically, while its acknowledgement number
/// waits for the retransmission to cross the queue).
///
/// A link that is merely narrow still carries acknowledgements; a peer that vanished without closing (a puller killed,
/// a network gone) sends none, and libsrt keeps its connection until the peer-idle timeout (5 s by default) while its
/// send buffer fills. Such a peer's backlog says nothing about the link the others share, so the adaptation leaves it
/// out (``SRTDestination`` then forgets it once libsrt breaks the connection).
public struct SRTPeerLiveness: Sendable, Equatable {
    /// How long a peer with media in flight may send no acknowledgement before it counts as silent, in seconds.
    public let silenceLimit: Double
    private var acknowledgements: Int?
    private var lossReports: Int?
    private var lastProgress: Double?

    /// Creates the tracker for one peer.
    /// - Parameter silenceLimit: seconds without an acknowledgement or a loss report, while media waits, after which the peer
    ///   counts as silent; the default, 0.2 s, is twenty of SRT's acknowledgement periods and shorter than the
    ///   destination's reading interval, so one reading without an acknowledgement is enough.
    public init(silenceLimit: Double = 0.2) {
        self.silenceLimit = silenceLimit
    }

    /// Takes one reading of the peer's counters.
    /// - Parameters:
    ///   - statistics: the connection's counters now.
    ///   - now: a monotonic time in seconds.
    /// - Returns: whether the peer answers: it sent an acknowledgement or a loss report within ``silenceLimit``, or
    ///   nothing waits for an acknowledgement.
    public mutating func observe(_ statistics: SRTStatistics, at now: Double) -> Bool {
        let waiting = statistics.packetsInFlight > 0 || statistics.sendBufferDelay > .zero
        let heard = statistics.acknowledgementsReceived != acknowledgements || statistics.negativeAcknowledgementsReceived != lossReports
        if heard || !waiting || lastProgress == nil {
            acknowledgements = statistics.acknowledgementsReceived
            lossReports = statistics.negativeAcknowledgementsReceived
            lastProgress = now
            return true
        }
        return now - (lastProgress ?? now) <= silenceLimit
    }
}

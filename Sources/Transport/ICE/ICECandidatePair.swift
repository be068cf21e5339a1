import POSIX

/// One candidate pair of an ICE check list (RFC 8445 §6.1.2): our host candidate with one of the peer's, its
/// priority and state.
public struct ICECandidatePair: Hashable, Sendable {
    /// A pair's state (RFC 8445 §6.1.2.6); `frozen` is not used: every pair here has its own foundation's single
    /// component, so all start `waiting`.
    public enum State: Hashable, Sendable {
        /// Not yet checked.
        case waiting
        /// A check is outstanding.
        case inProgress
        /// A check succeeded: the pair is valid (§7.2.5.3.2).
        case succeeded
        /// Its checks failed or timed out.
        case failed
    }

    /// The peer's address (a candidate of its answer, or a peer-reflexive one learnt from its check).
    public var remote: SocketAddress
    /// The peer candidate's priority.
    public var remotePriority: UInt32
    /// Whether the remote candidate was learnt from a check (peer-reflexive, §7.3.1.3).
    public var isPeerReflexive: Bool
    /// The state.
    public var state: State
    /// Whether the pair is nominated (§8.1.1: a check with USE-CANDIDATE succeeded on it, or the controlling peer
    /// nominated it while we are controlled).
    public var isNominated = false
    /// While controlled: the peer sent USE-CANDIDATE on this pair before our own check succeeded (§7.3.1.5).
    public var peerNominated = false

    /// A waiting pair.
    /// - Parameters:
    ///   - remote: the peer's address.
    ///   - remotePriority: its priority.
    ///   - isPeerReflexive: whether it was learnt from a check.
    public init(remote: SocketAddress, remotePriority: UInt32, isPeerReflexive: Bool = false) {
        self.remote = remote
        self.remotePriority = remotePriority
        self.isPeerReflexive = isPeerReflexive
        state = .waiting
    }

    /// The pair priority (RFC 8445 §6.1.2.3): 2^32·min(G, D) + 2·max(G, D) + (G > D ? 1 : 0), where G is the
    /// controlling agent's candidate priority and D the controlled agent's.
    /// - Parameters:
    ///   - localPriority: our candidate's priority.
    ///   - isControlling: whether we are the controlling agent.
    /// - Returns: the priority.
    public func priority(localPriority: UInt32, isControlling: Bool) -> UInt64 {
        let g = UInt64(isControlling ? localPriority : remotePriority)
        let d = UInt64(isControlling ? remotePriority : localPriority)
        return (min(g, d) << 32) &+ 2 &* max(g, d) &+ (g > d ? 1 : 0)
    }
}

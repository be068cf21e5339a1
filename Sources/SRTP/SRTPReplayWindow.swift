/// The replay list of one stream (RFC 3711 §3.3.2): the highest index authenticated so far and a bit for each of
/// the ``size`` indices at and below it. Pure value, no allocation.
public struct SRTPReplayWindow: Sendable, Hashable {
    /// How many indices behind the highest the window remembers (RFC 3711 §3.3.2 asks for at least 64).
    public static let size: UInt64 = 128

    /// The highest index authenticated so far; `nil` before the first.
    public private(set) var highest: UInt64?
    /// Bit `n` of `low` (or `n - 64` of `high`) set: index `highest - n` was received.
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// An empty window.
    public init() {}

    /// What ``check(_:)`` found.
    public enum Verdict: Sendable, Equatable {
        /// Not seen yet: the packet may be authenticated and then ``accept(_:)``ed.
        case fresh
        /// Seen already.
        case replayed
        /// Behind the window.
        case tooOld
    }

    /// Whether `index` may be accepted, without changing the window (RFC 3711 §3.3 step 2, before authentication).
    /// - Parameter index: the packet's index.
    /// - Returns: the verdict.
    public func check(_ index: UInt64) -> Verdict {
        guard let highest, index <= highest else { return .fresh }
        let delta = highest - index
        guard delta < Self.size else { return .tooOld }
        return bit(delta) ? .replayed : .fresh
    }

    /// Records `index` as received (RFC 3711 §3.3 step 7, after authentication).
    /// - Parameter index: the packet's index.
    public mutating func accept(_ index: UInt64) {
        guard let current = highest else {
            highest = index
            low = 1
            high = 0
            return
        }
        if index > current {
            shift(by: index - current)
            highest = index
            low |= 1
        } else {
            let delta = current - index
            guard delta < Self.size else { return }
            if delta < 64 { low |= 1 << delta } else { high |= 1 << (delta - 64) }
        }
    }

    private func bit(_ delta: UInt64) -> Bool {
        delta < 64 ? low & (1 << delta) != 0 : high & (1 << (delta - 64)) != 0
    }

    private mutating func shift(by distance: UInt64) {
        if distance >= 128 {
            low = 0
            high = 0
        } else if distance >= 64 {
            high = low << (distance - 64)
            low = 0
        } else {
            high = (high << distance) | (low >> (64 - distance))
            low <<= distance
        }
    }
}

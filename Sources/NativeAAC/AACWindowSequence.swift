/// `window_sequence` (ISO/IEC 14496-3 §4.5.2.3.2, Table 4.87): which transform and window a frame uses.
public enum AACWindowSequence: UInt8, Sendable, Hashable {
    /// One long (2048-sample) window.
    case onlyLong = 0
    /// A long window whose right half goes over into short windows.
    case longStart = 1
    /// Eight short (256-sample) windows.
    case eightShort = 2
    /// A long window whose left half comes out of short windows.
    case longStop = 3

    /// Whether the frame holds eight short windows.
    public var isShort: Bool { self == .eightShort }
}

/// `window_shape` (§4.5.2.3.2): the window function of a frame's transform.
public enum AACWindowShape: UInt8, Sendable, Hashable {
    /// The sine window.
    case sine = 0
    /// The Kaiser-Bessel derived window (α = 4 long, 6 short).
    case kaiserBesselDerived = 1
}

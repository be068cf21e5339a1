/// How much encoding time a session may spend for compression, by x264's preset names, fastest first.
/// Each engine maps the name onto its own tools: libx264 and libx265 take it as their `preset`, and
/// the native H.264 encoder chooses its search, partitions and decisions by it (each of its presets a
/// measured trade of speed against BD-rate; see the native engine's documentation).
///
/// VideoToolbox has no preset; its properties map onto one like this:
///
/// | VideoToolbox | preset |
/// | --- | --- |
/// | `kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality` = true | ``ultrafast`` |
/// | `kVTCompressionPropertyKey_RealTime` = true (speed not prioritised) | ``veryfast`` |
/// | `kVTCompressionPropertyKey_Quality` < 0.5 | ``faster`` |
/// | `kVTCompressionPropertyKey_Quality` ≥ 0.5, or none of these set | the engine's default (``medium`` for x264/x265) |
/// | `kVTCompressionPropertyKey_Quality` = 1.0 | ``medium`` |
///
/// ``init(realTime:prioritizeSpeedOverQuality:quality:)`` applies this table.
public enum EncoderPreset: String, Sendable, Hashable, CaseIterable, Comparable {
    /// x264's `ultrafast`: the least work per picture.
    case ultrafast
    /// x264's `superfast`.
    case superfast
    /// x264's `veryfast`.
    case veryfast
    /// x264's `faster`.
    case faster
    /// x264's `fast`.
    case fast
    /// x264's `medium`, its default: the most thorough of these.
    case medium

    /// The preset VideoToolbox's speed and quality properties correspond to (see the table above).
    /// - Parameters:
    ///   - realTime: `kVTCompressionPropertyKey_RealTime`.
    ///   - prioritizeSpeedOverQuality: `kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality`.
    ///   - quality: `kVTCompressionPropertyKey_Quality`, 0…1, `nil` when not set.
    /// - Returns: the preset, or `nil` when the engine's default applies.
    public init?(realTime: Bool, prioritizeSpeedOverQuality: Bool, quality: Double?) {
        if prioritizeSpeedOverQuality { self = .ultrafast; return }
        if let quality, quality >= 1 { self = .medium; return }
        if realTime { self = .veryfast; return }
        if let quality, quality < 0.5 { self = .faster; return }
        return nil
    }

    /// Whether `lhs` is a faster preset than `rhs` (declaration order, fastest first).
    /// - Parameters:
    ///   - lhs: a preset.
    ///   - rhs: another preset.
    /// - Returns: `true` when `lhs` comes before `rhs`.
    public static func < (lhs: EncoderPreset, rhs: EncoderPreset) -> Bool {
        lhs.rank < rhs.rank
    }

    /// The position in ``allCases``, 0 for the fastest.
    private var rank: Int {
        switch self {
        case .ultrafast: 0
        case .superfast: 1
        case .veryfast: 2
        case .faster: 3
        case .fast: 4
        case .medium: 5
        }
    }
}

import AAC

/// The scalefactor band offsets of one sampling rate for long and short windows (ISO/IEC 14496-3
/// §4.5.4, Tables 4.129–4.147 `swb_offset_long_window` / `swb_offset_short_window`), and the TNS band
/// limit of AAC-LC (Table 4.155 `TNS_MAX_BANDS`).
///
/// Shared by the decoder and an encoder: band `b` of a long window covers spectral lines
/// `long[b]..<long[b + 1]`; of a short window, `short[b]..<short[b + 1]`.
public struct AACScalefactorBandTable: Sendable, Hashable {
    /// Offsets of the long-window bands, ending with 1024 (count: bands + 1).
    public let long: [Int]
    /// Offsets of the short-window bands, ending with 128 (count: bands + 1).
    public let short: [Int]
    /// TNS_MAX_BANDS for long windows (AAC-LC).
    public let tnsMaximumBandsLong: Int
    /// TNS_MAX_BANDS for short windows (AAC-LC).
    public let tnsMaximumBandsShort: Int

    /// The number of long-window bands (`num_swb_long_window`).
    public var longBandCount: Int { long.count - 1 }
    /// The number of short-window bands (`num_swb_short_window`).
    public var shortBandCount: Int { short.count - 1 }

    /// The table of a sampling frequency index.
    /// - Parameter index: the stream's `sampling_frequency_index`.
    /// - Returns: its band table.
    public static func forIndex(_ index: SamplingFrequencyIndex) -> AACScalefactorBandTable {
        tables[min(Int(index.rawValue), tables.count - 1)]
    }

    /// One table per sampling frequency index 0 (96 kHz) through 12 (7350 Hz).
    static let tables: [AACScalefactorBandTable] = {
        let long96: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 72, 80, 88, 96, 108, 120, 132, 144,
                             156, 172, 188, 212, 240, 276, 320, 384, 448, 512, 576, 640, 704, 768, 832, 896, 960, 1024]
        let long64: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 72, 80, 88, 100, 112, 124, 140, 156,
                             172, 192, 216, 240, 268, 304, 344, 384, 424, 464, 504, 544, 584, 624, 664, 704, 744, 784, 824,
                             864, 904, 944, 984, 1024]
        let long48: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 72, 80, 88, 96, 108, 120, 132, 144, 160, 176,
                             196, 216, 240, 264, 292, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736,
                             768, 800, 832, 864, 896, 928, 1024]
        let long32: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 72, 80, 88, 96, 108, 120, 132, 144, 160, 176,
                             196, 216, 240, 264, 292, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736,
                             768, 800, 832, 864, 896, 928, 960, 992, 1024]
        let long24: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 52, 60, 68, 76, 84, 92, 100, 108, 116, 124, 136, 148,
                             160, 172, 188, 204, 220, 240, 260, 284, 308, 336, 364, 396, 432, 468, 508, 552, 600, 652, 704,
                             768, 832, 896, 960, 1024]
        let long16: [Int] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 100, 112, 124, 136, 148, 160, 172, 184, 196, 212,
                             228, 244, 260, 280, 300, 320, 344, 368, 396, 424, 456, 492, 532, 572, 616, 664, 716, 772, 832,
                             896, 960, 1024]
        let long8: [Int] = [0, 12, 24, 36, 48, 60, 72, 84, 96, 108, 120, 132, 144, 156, 172, 188, 204, 220, 236, 252, 268, 288,
                            308, 328, 348, 372, 396, 420, 448, 476, 508, 544, 580, 620, 664, 712, 764, 820, 880, 944, 1024]
        let short96: [Int] = [0, 4, 8, 12, 16, 20, 24, 32, 40, 48, 64, 92, 128]
        let short48: [Int] = [0, 4, 8, 12, 16, 20, 28, 36, 44, 56, 68, 80, 96, 112, 128]
        let short24: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 36, 44, 52, 64, 76, 92, 108, 128]
        let short16: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 60, 72, 88, 108, 128]
        let short8: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 36, 44, 52, 60, 72, 88, 108, 128]
        let longs = [long96, long96, long64, long48, long48, long32, long24, long24, long16, long16, long16, long8, long8]
        let shorts = [short96, short96, short96, short48, short48, short48, short24, short24, short16, short16, short16, short8, short8]
        let tnsLong = [31, 31, 34, 40, 42, 51, 46, 46, 42, 42, 42, 39, 39]
        let tnsShort = [9, 9, 10, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14]
        return (0..<13).map { index in
            AACScalefactorBandTable(long: longs[index], short: shorts[index],
                                    tnsMaximumBandsLong: tnsLong[index], tnsMaximumBandsShort: tnsShort[index])
        }
    }()
}

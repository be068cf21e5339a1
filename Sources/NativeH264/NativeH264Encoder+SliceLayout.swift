extension NativeH264Encoder {
    /// How the encoder cuts each picture into slices.
    ///
    /// A slice is a run of macroblocks in raster order with a header of its own (§7.3.3, §7.4.3
    /// first_mb_in_slice). Nothing is predicted across its boundary: intra prediction, intra mode
    /// prediction, motion vector prediction, P_Skip and CAVLC's nC treat a macroblock of another slice
    /// as not available (§6.4.8, §6.4.11). The deblocking filter does run across slice boundaries
    /// (disable_deblocking_filter_idc 0, §7.4.3), so the decoded picture equals the single-slice one's
    /// filtering and a lost slice can be concealed from its filtered neighbours.
    ///
    /// ```swift
    /// // Each slice NAL unit fits one RTP packet of a 1500-byte Ethernet frame.
    /// var encoder = try NativeH264Encoder(width: 1280, height: 720, quantisationParameter: 26,
    ///                                     sliceLayout: .maximumBytes(1200))
    /// ```
    public enum SliceLayout: Sendable, Hashable, CustomStringConvertible {
        /// One slice per picture.
        case single
        /// This many slices of about equal macroblock counts (slice i starts at macroblock
        /// ⌊i · total / n⌋, so a slice may start in the middle of a macroblock row). A count above the
        /// number of macroblocks gives one slice per macroblock. Slices of one picture are coded on up
        /// to ``NativeH264Encoder/threadCount`` threads at once, with the same output as one thread.
        case count(Int)
        /// Slices as long as fit: each slice NAL unit (its one-byte header and the emulation-prevented
        /// payload, without start code) is at most this many bytes. When a macroblock would push a
        /// slice over the limit, the slice ends before it and the macroblock is coded again as the first
        /// of the next slice. A single macroblock that does not fit under the limit on its own gets a
        /// slice of its own, the only case where a slice exceeds the limit. Coded on one thread.
        case maximumBytes(Int)

        /// The smallest ``maximumBytes(_:)`` accepted: room for a slice header and a small macroblock.
        public static let smallestMaximumBytes = 32

        /// A short description: "single", "3 slices" or "≤ 1200 bytes".
        public var description: String {
            switch self {
            case .single: "single"
            case let .count(n): "\(n) slices"
            case let .maximumBytes(limit): "≤ \(limit) bytes"
            }
        }
    }
}

extension NativeH264Encoder {
    /// Checks a slice layout and a thread count.
    /// - Throws: ``NativeH264EncoderError/sliceCountOutOfRange(_:)``,
    ///   ``NativeH264EncoderError/maximumSliceBytesOutOfRange(_:)`` or
    ///   ``NativeH264EncoderError/threadCountOutOfRange(_:)``.
    static func validate(_ layout: SliceLayout, threadCount: Int) throws(NativeH264EncoderError) {
        switch layout {
        case .single: break
        case let .count(n): guard n >= 1 else { throw .sliceCountOutOfRange(n) }
        case let .maximumBytes(limit): guard limit >= SliceLayout.smallestMaximumBytes else { throw .maximumSliceBytesOutOfRange(limit) }
        }
        guard (1...maximumThreadCount).contains(threadCount) else { throw .threadCountOutOfRange(threadCount) }
    }
}

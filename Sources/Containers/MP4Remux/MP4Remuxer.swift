import MediaCore

/// Copies the samples of an ``MP4File`` into a new classic MP4 file without decoding them — what
/// `ffmpeg -i in.mp4 -c copy out.mp4` does: every track the writer can write, every sample's bytes as they are
/// (views of the input, no copy), every decode and presentation time and duration kept to the tick, and the
/// B-frame and encoder delays carried as edit lists (ISO/IEC 14496-12 §8.6.6).
///
/// ```swift
/// let input = try MP4File(contentsOf: "in.mp4")
/// let summary = try MP4Remuxer.remux(input, to: "out.mp4")
/// print("\(summary.sampleCount) samples in \(summary.copiedTracks.count) tracks")
/// ```
///
/// A fragmented input becomes a classic file; a track with a sample entry the writer does not know
/// (``MP4TrackFormat/unsupported(sampleEntry:)``) is left out and listed in ``Summary/skippedTracks``.
public enum MP4Remuxer {
    /// What a remux did.
    public struct Summary: Sendable, Hashable {
        /// The input track indices copied, in the order of the output's tracks (track IDs 1, 2, …).
        public var copiedTracks: [Int]
        /// The input track indices left out (a sample entry the writer cannot write).
        public var skippedTracks: [Int]
        /// The samples written, all tracks together.
        public var sampleCount: Int
    }

    /// The largest decode or presentation time (in ticks, either sign) and duration a copied sample may have:
    /// 2^40 ticks, 139 days at 90 kHz. Past it a hostile file's times would overflow the sample tables' arithmetic.
    public static let timeLimit: Int64 = 1 << 40

    /// Writes every track of `file` into `writer`'s sink and finishes it.
    /// - Parameters:
    ///   - file: the input.
    ///   - makeWriter: makes the writer from the output's tracks (choose the sink and the options there).
    /// - Returns: what was copied.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` when no track can be copied;
    ///   ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` for a time past ``timeLimit`` and, from the writer,
    ///   for decode times that go back; what the writer throws.
    public static func remux<Sink: ByteSink>(
        _ file: MP4File, into makeWriter: ([MP4TrackDescription]) throws(ContainerWriteError) -> MP4Writer<Sink>
    ) throws(ContainerWriteError) -> Summary {
        var descriptions: [MP4TrackDescription] = []
        var outputIndex = Array(repeating: -1, count: file.tracks.count)
        var summary = Summary(copiedTracks: [], skippedTracks: [], sampleCount: 0)
        for track in file.tracks {
            if let description = MP4TrackDescription(copying: track, of: file) {
                outputIndex[track.index] = descriptions.count
                descriptions.append(description)
                summary.copiedTracks.append(track.index)
            } else {
                summary.skippedTracks.append(track.index)
            }
        }
        guard !descriptions.isEmpty else {
            throw .invalidConfiguration("the input has no track an MP4 writer can copy (H.264, H.265 or AAC)")
        }
        var writer = try makeWriter(descriptions)
        for sample in file.interleavedSamples() {
            let index = outputIndex[sample.trackIndex]
            guard index >= 0 else { continue }
            let times = [sample.decodeTime, sample.presentationTime, sample.duration]
            guard sample.timescale > 0, times.allSatisfy({ abs($0) <= timeLimit }), sample.duration >= 0 else {
                throw .frameMismatch(frameIndex: sample.index, reason: "track \(file.tracks[sample.trackIndex].id) sample \(sample.index): "
                                     + "dts \(sample.decodeTime), pts \(sample.presentationTime), duration \(sample.duration) in timescale "
                                     + "\(sample.timescale) are outside ±2^40 ticks (or the duration is negative): not copied")
            }
            try writer.append(sample.data, dts: sample.dts, pts: sample.pts, duration: sample.durationTime,
                              isKeyFrame: sample.isKeyFrame, toTrack: index)
            summary.sampleCount += 1
        }
        try writer.finish()
        return summary
    }

    /// Copies `file` into a new MP4 file at `path`.
    /// - Parameters:
    ///   - file: the input.
    ///   - path: the output's path (`.mp4`, `.m4v`, `.mov`, `.m4a`); created or truncated.
    ///   - options: faststart, `co64`.
    /// - Returns: what was copied.
    /// - Throws: as ``remux(_:into:)``; ``ContainerWriteError/io(_:)`` when the file cannot be written.
    public static func remux(_ file: MP4File, to path: String,
                             options: MP4WriterOptions = MP4WriterOptions()) throws(ContainerWriteError) -> Summary {
        try remux(file) { (tracks) throws(ContainerWriteError) in try MP4Writer(path: path, tracks: tracks, options: options) }
    }
}

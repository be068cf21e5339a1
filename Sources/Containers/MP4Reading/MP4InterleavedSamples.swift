/// Every sample of several tracks, merged by decode time (compared exactly across timescales; ties go to the
/// lower track index), each track's samples staying in decode order.
public struct MP4InterleavedSamples: Sequence, Sendable {
    let tracks: [MP4TrackSamples]

    /// An iterator over the merged samples.
    /// - Returns: the iterator.
    public func makeIterator() -> Iterator { Iterator(tracks: tracks) }

    /// Walks the tracks with one cursor each.
    public struct Iterator: IteratorProtocol {
        let tracks: [MP4TrackSamples]
        var cursors: [Int]

        init(tracks: [MP4TrackSamples]) {
            self.tracks = tracks
            self.cursors = Array(repeating: 0, count: tracks.count)
        }

        /// The sample with the earliest decode time among the tracks' next samples.
        /// - Returns: the sample, `nil` when every track is done.
        public mutating func next() -> MP4FileSample? {
            var best: (track: Int, time: Int64, scale: Int32)?
            for index in tracks.indices where cursors[index] < tracks[index].endIndex {
                let samples = tracks[index]
                let table = samples.track.table
                let time = table.decodeTimes[cursors[index]] &+ samples.track.presentationOffset
                let scale = samples.track.timescale
                if let current = best {
                    // time / scale < current.time / current.scale, without rounding.
                    let left = time.multipliedFullWidth(by: Int64(current.scale))
                    let right = current.time.multipliedFullWidth(by: Int64(scale))
                    if (left.high, left.low) >= (right.high, right.low) { continue }
                }
                best = (index, time, scale)
            }
            guard let best else { return nil }
            defer { cursors[best.track] += 1 }
            return tracks[best.track][cursors[best.track]]
        }
    }
}

import MediaCore

/// A track's samples on its own clock: times converted to the track timescale, decode times counted
/// from the first sample's (the decode timeline of an MP4 track starts at 0, ISO/IEC 14496-12 §8.6.1),
/// composition offsets `pts − dts` (§8.6.1.3).
struct MP4TrackTimeline {
    /// A sample placed on the timeline.
    struct Placement {
        /// Decode time in track units, from the first sample.
        var decodeTime: Int64
        /// `pts − dts` in track units.
        var compositionOffset: Int64
        /// The sample's own duration in track units.
        var duration: Int64
    }

    let timescale: Int32
    private(set) var origin: Int64?
    private(set) var lastDecodeTime: Int64 = -1
    private(set) var sampleCount = 0

    init(timescale: Int32) {
        self.timescale = timescale
    }

    /// Places the next sample (in decode order).
    /// - Throws: ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` when its decode time goes back.
    mutating func place(_ sample: MP4Sample, trackIndex: Int) throws(ContainerWriteError) -> Placement {
        let dts = sample.dts.converted(to: timescale).value
        let pts = sample.pts.converted(to: timescale).value
        let start = origin ?? dts
        origin = start
        let decodeTime = dts - start
        guard decodeTime > lastDecodeTime || sampleCount == 0 else {
            throw .frameMismatch(frameIndex: sampleCount, reason: "track \(trackIndex): decode time \(sample.dts) is not after the "
                                 + "previous sample's (MP4 decode times increase, ISO/IEC 14496-12 §8.6.1.2)")
        }
        lastDecodeTime = decodeTime
        sampleCount += 1
        return Placement(decodeTime: decodeTime, compositionOffset: pts - dts,
                         duration: max(0, sample.duration.converted(to: timescale).value))
    }
}

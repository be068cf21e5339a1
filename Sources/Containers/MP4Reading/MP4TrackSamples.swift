import Bitstream

/// The samples of one ``MP4Track`` in decode order, each made on access from the track's index: a view into
/// the file's bytes and its times on the presentation timeline (no copy, no allocation per sample).
public struct MP4TrackSamples: RandomAccessCollection, Sendable {
    let bytes: ByteView
    /// The track.
    public let track: MP4Track

    init(bytes: ByteView, track: MP4Track) {
        self.bytes = bytes
        self.track = track
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of samples.
    public var endIndex: Int { track.table.count }

    /// The sample at `position`.
    /// - Parameter position: 0 ..< ``endIndex``.
    public subscript(position: Int) -> MP4FileSample {
        let table = track.table
        let offset = table.offsets[position]
        let size = Int(table.sizes[position])
        let decodeTime = table.decodeTimes[position] &+ track.presentationOffset
        // The builders checked every sample against the end of the file, so the view always exists.
        return MP4FileSample(data: bytes.getView(at: offset, byteCount: size) ?? ByteView(), trackIndex: track.index,
                         index: position, offset: offset, decodeTime: decodeTime,
                         presentationTime: decodeTime &+ Int64(table.compositionOffsets[position]),
                         duration: Int64(table.durations[position]), timescale: track.timescale,
                         isKeyFrame: table.syncFlags[position])
    }
}

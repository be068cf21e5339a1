import Containers
import MediaCore

/// The pictures of an MP4's first video track in decode order: with ``DecodedPictureSource``, the input of
/// `encode in.mp4 -o …` (a transcode).
struct MP4PictureReader: EncodedPictureReader {
    /// The track being read.
    let track: MP4Track
    /// The track's video format.
    let format: FormatDescription
    /// The track's frame rate: its sample count over its media duration, rounded (at least 1).
    let frameRate: Int
    private var samples: IndexingIterator<MP4TrackSamples>

    /// Opens the file at its first video track.
    /// - Parameter path: the `.mp4`/`.mov`/`.m4v` file.
    /// - Throws: ``MP4ReadError`` for a file that does not read, ``CommandLineError`` without a video track.
    init(path: String) throws {
        let file = try MP4File(contentsOf: path)
        guard let track = MP4Input.track(of: file, audio: false), case let .video(format) = track.format else {
            throw CommandLineError.conflict("\(path) has no H.264/H.265 track to encode")
        }
        self.track = track
        self.format = format
        let seconds = track.mediaDuration.seconds
        frameRate = seconds > 0 ? max(1, Int((Double(track.sampleCount) / seconds).rounded())) : 30
        samples = file.samples(of: track).makeIterator()
    }

    /// The next sample as an encoded picture.
    /// - Returns: the picture, `nil` after the last one.
    mutating func nextPicture() -> EncodedFrame? {
        samples.next()?.encodedFrame(format: format)
    }
}

import Containers
import MediaCore

/// An MP4 file (`.mp4`, `.mov`, `.m4v`, `.m4a`, classic or fragmented) sent as it is: the first H.264/H.265 track
/// and the first AAC track, their samples interleaved by decode time, in real time or as fast as the pipeline takes
/// them — `ffmpeg -re -i x.mp4 -c copy`.
public actor MP4FileSource: EncodedMediaSource {
    /// The file's path.
    public nonisolated let name: String

    private var samples: MP4InterleavedSamples.Iterator?
    private var video: (index: Int, format: FormatDescription)?
    private var audio: (index: Int, format: AudioFormatDescription)?
    private var pace: PaceKeeper
    private var isStopped = false

    /// Prepares to read the file (it is opened by ``open()``).
    /// - Parameters:
    ///   - path: the file.
    ///   - pacing: real time (as a live stream) or as fast as possible.
    public init(path: String, pacing: Pacing = .realTime) {
        name = path
        pace = PaceKeeper(pacing: pacing)
    }

    /// Opens the file and reads its index.
    /// - Returns: the formats of the tracks sent and the video's frame rate (0 when unknown).
    /// - Throws: ``LiveSourceError`` when the file cannot be read or has neither H.264/H.265 nor AAC.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        let file: MP4File
        do { file = try MP4File(contentsOf: name) } catch { throw LiveSourceError(source: name, kind: .malformed, reason: "\(error)") }
        var frameRate = 0.0
        for track in file.tracks {
            switch track.format {
            case let .video(format) where video == nil:
                video = (track.index, format)
                var trackSamples = file.samples(of: track).makeIterator()
                if let first = trackSamples.next(), first.durationTime.seconds > 0 { frameRate = 1 / first.durationTime.seconds }
            case let .audio(format) where audio == nil && format.codec == .aac:
                audio = (track.index, format)
            default:
                continue
            }
        }
        guard video != nil || audio != nil else {
            throw LiveSourceError(source: name, kind: .unsupported, reason: "it has no H.264/H.265 track and no AAC track")
        }
        samples = file.interleavedSamples().makeIterator()
        return LiveStreamDescription(video: video?.format, audio: audio?.format, frameRate: frameRate)
    }

    /// The next sample of the tracks sent, at its decode time when paced.
    /// - Returns: the frame, or `nil` at the end or once stopped.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        while !isStopped, var iterator = samples {
            guard let sample = iterator.next() else {
                samples = nil
                return nil
            }
            samples = iterator
            let media: EncodedMedia
            if let video, sample.trackIndex == video.index {
                media = .video(sample.encodedFrame(format: video.format))
            } else if let audio, sample.trackIndex == audio.index {
                media = .audio(sample.encodedAudioFrame(format: audio.format))
            } else {
                continue
            }
            guard await PaceKeeper.sleep(until: pace.deadline(for: media.decodeTime)), !isStopped else {
                isStopped = true
                return nil
            }
            return media
        }
        return nil
    }

    /// Ends the source.
    public func stop() {
        isStopped = true
        samples = nil
    }
}

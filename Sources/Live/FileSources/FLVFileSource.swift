import Containers
import MediaCore

/// An `.flv` file sent as it is: its H.264/H.265 pictures and AAC frames with their own timestamps (B-frame
/// composition times too), in file order, in real time or as fast as the pipeline takes them —
/// `ffmpeg -re -i x.flv -c copy`.
///
/// ``open()`` reads ahead (at most ``readAhead`` tags) until it has seen a picture and an audio frame — or only
/// the one the header announces — so the formats are known before anything is sent; those frames go out first.
/// A file cut off inside a tag ends there: what came before it is sent, and ``truncation`` says where.
public actor FLVFileSource: EncodedMediaSource {
    /// The most tags read ahead to find the formats.
    public static let readAhead = 256

    /// The file's path.
    public nonisolated let name: String
    /// Where the file was cut off, once the end is reached, if it was.
    public private(set) var truncation: String?

    private var reader: FLVMediaReader<FileByteSource>?
    private var held: [EncodedMedia] = []
    private var pace: PaceKeeper
    private var isStopped = false

    /// Prepares to read the file (it is opened by ``open()``).
    /// - Parameters:
    ///   - path: the `.flv` file.
    ///   - pacing: real time (as a live stream) or as fast as possible.
    public init(path: String, pacing: Pacing = .realTime) {
        name = path
        pace = PaceKeeper(pacing: pacing)
    }

    /// Opens the file and reads ahead to its formats.
    /// - Returns: the formats and the frame rate (from the first picture's duration; 0 when unknown).
    /// - Throws: ``LiveSourceError`` when the file cannot be opened, is not FLV, or has neither H.264/H.265 nor AAC.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        var reader: FLVMediaReader<FileByteSource>
        do {
            reader = FLVMediaReader(reader: try FLVReader(source: try FileByteSource(path: name)))
        } catch let error as ContainerIOError {
            throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error)")
        } catch {
            throw LiveSourceError(source: name, kind: .malformed, reason: "\(error)")
        }
        let header = reader.header
        var video: FormatDescription?, audio: AudioFormatDescription?
        var frameRate = 0.0
        self.reader = reader
        while held.count < Self.readAhead, (header.hasVideo && video == nil) || (header.hasAudio && audio == nil),
              let media = try read() {
            held.append(media)
            switch media {
            case let .video(frame):
                video = video ?? frame.format
                if frameRate == 0, frame.duration.seconds > 0 { frameRate = 1 / frame.duration.seconds }
            case let .audio(frame):
                audio = audio ?? frame.format
            }
        }
        guard video != nil || audio != nil else {
            throw LiveSourceError(source: name, kind: .unsupported, reason: "it has no H.264/H.265 pictures and no AAC frames")
        }
        return LiveStreamDescription(video: video, audio: audio, frameRate: frameRate)
    }

    /// The next picture or audio frame in file order, at its decode time when paced.
    /// - Returns: the frame, or `nil` at the end (or where the file was cut off) or once stopped.
    /// - Throws: ``LiveSourceError`` for a malformed tag.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        guard !isStopped else { return nil }
        let media: EncodedMedia
        if !held.isEmpty {
            media = held.removeFirst()
        } else {
            guard let read = try read() else { return nil }
            media = read
        }
        guard await PaceKeeper.sleep(until: pace.deadline(for: media.decodeTime)), !isStopped else {
            isStopped = true
            return nil
        }
        return media
    }

    /// Ends the source.
    public func stop() {
        isStopped = true
        reader = nil
        held = []
    }

    private func read() throws(LiveSourceError) -> EncodedMedia? {
        while var current = reader {
            let event: FLVMediaEvent
            do { event = try current.next() } catch { throw LiveSourceError(source: name, kind: .malformed, reason: "\(error)") }
            reader = current
            switch event {
            case let .video(frame): return .video(frame)
            case let .audio(frame): return .audio(frame)
            case .metadata: continue
            case .end:
                reader = nil
            case let .truncated(offset, field):
                reader = nil
                truncation = "\(name) ends inside a tag (byte \(offset), \(field)): what came before it was sent"
            }
        }
        return nil
    }
}

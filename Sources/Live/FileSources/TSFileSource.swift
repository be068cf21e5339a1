import Containers
import MediaCore

/// An MPEG-TS file (`.ts`, ISO/IEC 13818-1) sent as it is: the pictures and AAC frames of its first H.264/H.265
/// stream and its first ADTS stream (``TSMediaReader``), with their own times, in file order, in real time or as
/// fast as the pipeline takes them — `ffmpeg -re -i x.ts -c copy`.
///
/// ``open()`` reads ahead (at most ``readAhead`` frames) until it has seen a frame of each stream the program map
/// announces, so the formats are known before anything is sent. What goes wrong in the file — lost packets,
/// garbage, a cut — does not stop it: each accident is kept in ``issues`` (the first ``maximumIssues``) and the
/// frames after it are sent.
public actor TSFileSource: EncodedMediaSource {
    /// The most frames read ahead to find the formats.
    public static let readAhead = 512
    /// The most issues kept.
    public static let maximumIssues = 100
    /// The bytes read from the file at a time.
    static let chunkSize = 1 << 18

    /// The file's path.
    public nonisolated let name: String
    /// What went wrong in the file so far.
    public private(set) var issues: [TSStreamIssue] = []

    private var file: FileByteSource?
    private var reader = TSMediaReader()
    private var videoPID: UInt16?
    private var audioPID: UInt16?
    private var ready: [EncodedMedia] = []
    private var chunk = [UInt8](repeating: 0, count: chunkSize)
    private var pace: PaceKeeper
    private var isStopped = false

    /// Prepares to read the file (it is opened by ``open()``).
    /// - Parameters:
    ///   - path: the `.ts` file.
    ///   - pacing: real time (as a live stream) or as fast as possible.
    public init(path: String, pacing: Pacing = .realTime) {
        name = path
        pace = PaceKeeper(pacing: pacing)
    }

    /// Opens the file and reads ahead to its formats.
    /// - Returns: the formats and the frame rate (from the first pictures' decode times; 0 when unknown).
    /// - Throws: ``LiveSourceError`` when the file cannot be opened or has neither H.264/H.265 nor AAC.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        do { file = try FileByteSource(path: name) } catch { throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error)") }
        var video: FormatDescription?, audio: AudioFormatDescription?
        var wantsVideo = true, wantsAudio = true
        var frameRate = 0.0
        var index = 0
        while index < Self.readAhead, (wantsVideo && video == nil) || (wantsAudio && audio == nil) {
            while ready.count <= index, file != nil { try fill(announced: &wantsVideo, &wantsAudio) }
            guard ready.count > index else { break }
            switch ready[index] {
            case let .video(frame):
                video = video ?? frame.format
                if frameRate == 0, frame.duration.seconds > 0, index > 0 { frameRate = 1 / frame.duration.seconds }
            case let .audio(frame): audio = audio ?? frame.format
            }
            index += 1
        }
        guard video != nil || audio != nil else {
            throw LiveSourceError(source: name, kind: .unsupported, reason: "it has no H.264/H.265 pictures and no AAC frames")
        }
        return LiveStreamDescription(video: video, audio: audio, frameRate: frameRate)
    }

    /// The next picture or audio frame in file order, at its decode time when paced.
    /// - Returns: the frame, or `nil` at the end or once stopped.
    /// - Throws: ``LiveSourceError`` when the file cannot be read.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        var wantsVideo = true, wantsAudio = true
        while !isStopped, ready.isEmpty, file != nil { try fill(announced: &wantsVideo, &wantsAudio) }
        guard !isStopped, !ready.isEmpty else { return nil }
        let media = ready.removeFirst()
        guard await PaceKeeper.sleep(until: pace.deadline(for: media.decodeTime)), !isStopped else {
            isStopped = true
            return nil
        }
        return media
    }

    /// Ends the source.
    public func stop() {
        isStopped = true
        closeFile()
        ready = []
    }

    private func closeFile() {
        try? file?.close()
        file = nil
    }

    /// Reads one chunk (or the end) and keeps the frames of the chosen streams.
    private func fill(announced wantsVideo: inout Bool, _ wantsAudio: inout Bool) throws(LiveSourceError) {
        guard let file else { return }
        let count: Int
        do { count = try chunk.withUnsafeMutableBytes { buffer in try file.read(into: buffer) } } catch {
            throw LiveSourceError(source: name, kind: .malformed, reason: "\(error)")
        }
        let events: [TSMediaReader.Event]
        if count == 0 {
            events = reader.finish()
            closeFile()
        } else {
            events = reader.append(chunk[..<count])
        }
        for event in events {
            switch event {
            case let .programMap(map):
                wantsVideo = map.streams.contains { $0.streamType.isVideo }
                wantsAudio = map.streams.contains { $0.streamType == .adtsAAC }
            case let .video(frame, pid):
                if videoPID == nil { videoPID = pid }
                if pid == videoPID { ready.append(.video(frame)) }
            case let .audio(frame, pid):
                if audioPID == nil { audioPID = pid }
                if pid == audioPID { ready.append(.audio(frame)) }
            case let .issue(issue):
                if issues.count < Self.maximumIssues { issues.append(issue) }
            }
        }
    }
}
